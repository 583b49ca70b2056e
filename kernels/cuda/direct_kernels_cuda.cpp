// The band Cholesky's kernels (solvers/direct/direct_kernels.hpp) on CUDA: each forwards to the
// device code of this folder as the band solver has always called it.
#include "solvers/direct/direct_kernels.hpp"

#include "kernels/cuda/band_cholesky_cuda.hpp"
#include "kernels/cuda/band_cholesky_persistent.hpp"
#include "kernels/cuda/twisted_copy_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

class CudaDirectKernels final : public band::DirectKernels {
 public:
  void factor_chain(const BandLayout& layout, double* rows, int parts) const override { chain(layout, rows, parts); }
  void factor_chain(const BandLayout& layout, float* rows, int parts) const override { chain(layout, rows, parts); }
  void factor_persistent(const BandLayout& layout, double* rows, int parts) const override {
    cuda::factor_persistent(layout, rows, nullptr, {persistent_blocks() / parts});
  }

  int factor_streamed(const BandLayout& layout, double* host_rows, std::size_t device_bytes) const override {
    return cuda::factor_streamed(layout, host_rows, device_bytes);
  }
  int factor_streamed(const BandLayout& layout, float* host_rows, std::size_t device_bytes) const override {
    return cuda::factor_streamed(layout, host_rows, device_bytes);
  }
  std::size_t min_streaming_bytes(const BandLayout& layout, std::size_t element_bytes) const override {
    return cuda::min_streaming_bytes(layout, element_bytes);
  }

  void triangle_to_dense(const double* triangle, index_t triangle_ld, index_t size, bool reflected, double* dense,
                         index_t dense_ld) const override {
    cuda::triangle_to_dense(triangle, triangle_ld, size, reflected, dense, dense_ld);
  }
  void triangle_to_dense(const float* triangle, index_t triangle_ld, index_t size, bool reflected, float* dense,
                         index_t dense_ld) const override {
    cuda::triangle_to_dense(triangle, triangle_ld, size, reflected, dense, dense_ld);
  }
  void copy_lower(const double* from, index_t from_ld, index_t size, double* to, index_t to_ld) const override {
    cuda::copy_lower(from, from_ld, size, to, to_ld);
  }
  void copy_lower(const float* from, index_t from_ld, index_t size, float* to, index_t to_ld) const override {
    cuda::copy_lower(from, from_ld, size, to, to_ld);
  }
  void reverse_rows(const double* from, index_t from_ld, index_t rows, index_t cols, bool add, double* to,
                    index_t to_ld) const override {
    cuda::reverse_rows(from, from_ld, rows, cols, add, to, to_ld);
  }
  void reverse_rows(const float* from, index_t from_ld, index_t rows, index_t cols, bool add, float* to,
                    index_t to_ld) const override {
    cuda::reverse_rows(from, from_ld, rows, cols, add, to, to_ld);
  }

 private:
  // The schedule of one walker, or of one of two sharing the device.
  template <class T>
  static void chain(const BandLayout& layout, T* rows, int parts) {
    factor_on_device(layout, rows, device_schedule(layout, parts > 1));
  }
};

}  // namespace

const band::DirectKernels& direct_kernels() {
  static const CudaDirectKernels kernels;
  return kernels;
}

}  // namespace fem::kernels::cuda

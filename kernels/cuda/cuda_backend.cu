#include "kernels/cuda/cuda_backend.hpp"

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_kernels.hpp"
#include "kernels/cuda/row_major_cublas.hpp"
#include "kernels/cuda/stream_event.hpp"
#include "kernels/typed_dense_backend.hpp"

#include <climits>

namespace fem::kernels::cuda {

namespace {

class CudaStorage final : public DeviceStorage {
public:
  CudaStorage(const DenseBackend* owner, std::size_t bytes) : DeviceStorage(owner, bytes), data_(bytes) {
    data_.zero();
  }
  void* handle() const override { return data_.get(); }

private:
  DeviceBuffer<unsigned char> data_;
};

int as_int(index_t v, const char* what) {
  if (v > INT_MAX)
    throw std::invalid_argument(std::string("CUDA back-end: ") + what + " " + std::to_string(v) +
                                " exceeds the 32-bit range of the kernels");
  return static_cast<int>(v);
}

template <class T>
Operand<T> operand(const DeviceMatrix<T>& m, Op op) {
  return op == Op::none ? Operand<T>{m.data(), m.ld, 1} : Operand<T>{m.data(), 1, m.ld};
}

class CudaBackend final : public TypedDenseBackend<CudaBackend> {
public:
  explicit CudaBackend(GemmKernel kernel) : kernel_(kernel) {
    const std::string reason = unavailable_reason();
    if (!reason.empty()) throw BackendUnavailable(reason);
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    device_ = prop.name;
    info_ = DeviceBuffer<int>(1);
    if (kernel_ == GemmKernel::cublas) check(cublasCreate(&cublas_), "cublasCreate");
  }
  ~CudaBackend() override {
    if (cublas_) cublasDestroy(cublas_);
  }

  std::string name() const override {
    switch (kernel_) {
      case GemmKernel::naive: return "cuda-naive";
      case GemmKernel::tiled: return "cuda";
      case GemmKernel::cublas: return "cublas";
    }
    return "cuda";
  }
  std::string description() const override {
    switch (kernel_) {
      case GemmKernel::naive: return device_ + ", naive GEMM (one thread per element)";
      case GemmKernel::tiled:
        return device_ + ", tiled GEMM (FP64 tensor cores in double, CUDA cores in float)";
      case GemmKernel::cublas: return device_ + ", cuBLAS GEMM/SYRK";
    }
    return device_;
  }
  bool uses_host_memory() const override { return false; }
  void synchronize() override { cuda::synchronize(); }
  double seconds_for(const std::function<void()>& work) override {
    Event start(Event::Timing::on), stop(Event::Timing::on);
    start.record(nullptr);
    work();
    stop.record(nullptr);
    return stop.seconds_since(start);
  }

protected:
  std::shared_ptr<DeviceStorage> allocate_bytes(std::size_t bytes) override {
    return std::make_shared<CudaStorage>(this, bytes);
  }
  void copy_to_device(const void* host, std::size_t host_pitch, DeviceStorage& dst,
                      std::size_t dst_offset, std::size_t dst_pitch, std::size_t row_bytes,
                      std::size_t rows) override {
    check(cudaMemcpy2D(static_cast<char*>(dst.handle()) + dst_offset, dst_pitch, host, host_pitch,
                       row_bytes, rows, cudaMemcpyHostToDevice),
          "copy to the device");
  }
  void copy_to_host(const DeviceStorage& src, std::size_t src_offset, std::size_t src_pitch,
                    void* host, std::size_t host_pitch, std::size_t row_bytes,
                    std::size_t rows) override {
    check(cudaMemcpy2D(host, host_pitch, static_cast<const char*>(src.handle()) + src_offset,
                       src_pitch, row_bytes, rows, cudaMemcpyDeviceToHost),
          "copy to the host");
  }

  index_t tile_size() const override { return max_tile; }

  void front_assemble_kernel(const DeviceMatrix<double>& from,
                             const std::int32_t* from_index,
                             const DeviceMatrix<double>& batch,
                             const std::int32_t* batch_index,
                             const DeviceMatrix<double>& to) override {
    const int n = as_int(to.rows, "front size");
    // The copies are synchronous, so no queued kernel still reads an array being replaced.
    if (2 * static_cast<std::size_t>(n) > indices_.size()) indices_ = DeviceBuffer<int>(2 * static_cast<std::size_t>(n));
    copy_bytes_to_device(indices_.get(), from_index, n * sizeof(int));
    copy_bytes_to_device(indices_.get() + n, batch_index, n * sizeof(int));
    cuda::front_assemble(from.data(), from.ld, indices_.get(), batch.data(), batch.ld,
                         indices_.get() + n, to.data(), to.ld, n);
  }

private:
  friend class TypedDenseBackend<CudaBackend>;

  template <class T>
  void gemm_any(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b,
                T beta, const DeviceMatrix<T>& c, Fill fill) {
    const GemmCall<T> call{as_int(c.rows, "rows"), as_int(c.cols, "columns"),
                           as_int(a.cols_of(op_a), "inner dimension"), alpha, operand(a, op_a),
                           operand(b, op_b), beta, c.data(), c.ld, fill == Fill::lower};
    switch (kernel_) {
      case GemmKernel::naive: gemm_naive(call); return;
      case GemmKernel::tiled:
        if constexpr (std::is_same_v<T, double>) gemm_dmma(call);
        else gemm_tiled(call);
        return;
      case GemmKernel::cublas: gemm_cublas(op_a, op_b, call, a, b, fill); return;
    }
  }

  // cuBLAS is column-major: row-major C = op(A) op(B) is column-major Cᵀ = op(B)ᵀ op(A)ᵀ,
  // and a row-major lower triangle is a column-major upper one.
  template <class T>
  void gemm_cublas(Op op_a, Op op_b, const GemmCall<T>& g, const DeviceMatrix<T>& a,
                   const DeviceMatrix<T>& b, Fill fill) {
    const auto cublas_op = [](Op op) { return op == Op::none ? CUBLAS_OP_N : CUBLAS_OP_T; };
    const int lda = as_int(a.ld, "leading dimension"), ldb = as_int(b.ld, "leading dimension");
    const int ldc = as_int(g.ldc, "leading dimension");
    const bool is_syrk = op_a == Op::none && op_b == Op::transpose && a.storage == b.storage &&
                         a.offset == b.offset && a.rows == b.rows && a.cols == b.cols && a.ld == b.ld;
    if (fill == Fill::lower && !is_syrk) {
      gemm_tiled(g);  // a masked product that is not a SYRK: cuBLAS has no such call
      return;
    }
    const T* pa = a.data();
    const T* pb = b.data();
    if (fill == Fill::lower)
      check(cublas_syrk(cublas_, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, g.n, g.k, &g.alpha, pa, lda, &g.beta, g.c, ldc),
            "cuBLAS SYRK");
    else
      check(cublas_gemm(cublas_, cublas_op(op_b), cublas_op(op_a), g.n, g.m, g.k, &g.alpha, pb, ldb, pa, lda, &g.beta,
                        g.c, ldc),
            "cuBLAS GEMM");
  }

  template <class T>
  index_t potrf_any(const DeviceMatrix<T>& a) {
    cuda::potrf_tile(a.data(), a.ld, as_int(a.rows, "tile size"), info_.get());
    int info = -1;
    info_.download(&info);
    return info;
  }

  // As the reference: the right-hand solve is the left one on Bᵀ with op(L)ᵀ.
  template <class T>
  void trsm_any(Side side, Op op_l, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b) {
    const bool right = side == Side::right;
    const Op op = right ? (op_l == Op::none ? Op::transpose : Op::none) : op_l;
    const long long brs = right ? 1 : b.ld, bcs = right ? b.ld : 1;
    const int rhs = as_int(right ? b.rows : b.cols, "right-hand sides");
    cuda::trsm_tile(operand(l, op), op == Op::none, as_int(l.rows, "tile size"), b.data(),
                    brs, bcs, rhs);
  }

  GemmKernel kernel_;
  std::string device_;
  DeviceBuffer<int> info_;     // potrf_tile's pivot check
  DeviceBuffer<int> indices_;  // front_assemble's index lists
  cublasHandle_t cublas_ = nullptr;
};

}  // namespace

bool is_cuda_backend(const DenseBackend& dense) { return dynamic_cast<const CudaBackend*>(&dense) != nullptr; }

std::string unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  // Without a GPU (or its driver) the runtime says "driver version is insufficient": say what it means.
  if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice)
    return std::string("no CUDA device (no NVIDIA GPU or driver on this machine; CUDA: ") + cudaGetErrorString(status) + ")";
  if (status != cudaSuccess)
    return std::string("no usable CUDA device: ") + cudaGetErrorString(status);
  if (count == 0) return "no CUDA device found";
  return {};
}

std::unique_ptr<DenseBackend> make_backend(GemmKernel kernel) {
  return std::make_unique<CudaBackend>(kernel);
}

}  // namespace fem::kernels::cuda

#pragma once
// The multifrontal method's large fronts on a CUDA device. The factor panels of those fronts live
// in one device store; update matrices are taken from the stream-ordered memory pool and given
// back as soon as the parent has added them in, so a chain of fronts never leaves the device.
// A front's pivots are eliminated by blocks (our diagonal-block kernel, cuBLAS GEMM and SYRK, see
// eliminate()), its update matrix by one SYRK; the panels stay for the substitution's sweeps over
// them (cuBLAS TRSV and GEMV on a device copy of x). Matrices are row-major as on the host (a
// front is its panel, rows x own columns, and its update matrix, lower triangle); all work is
// queued on one stream (a front's block rows on a second one, joined before the front ends) and
// runs while the host goes on.
// Plain C++17 (the .cu files are compiled as such): no CUDA header needed to use it.
#include <cstdint>
#include <memory>
#include <vector>

#include "solvers/multifrontal/multifrontal_kernels.hpp"

namespace fem::kernels::cuda {

using multifrontal::EliminationTimes;
using multifrontal::FrontLayout;

template <class T>
class DeviceFronts final : public multifrontal::FrontKernels<T> {
 public:
  using Failure = typename multifrontal::FrontKernels<T>::Failure;

  // Throws BackendUnavailable without a device, std::runtime_error when the device memory is short.
  explicit DeviceFronts(const FrontLayout& layout);
  // The values of the elimination's workspaces (a diagonal block's inverse, a block row's scratch)
  // for fronts of at most `largest_front` rows.
  static std::int64_t workspace_entries(std::int64_t largest_front);
  ~DeviceFronts();
  DeviceFronts(const DeviceFronts&) = delete;
  DeviceFronts& operator=(const DeviceFronts&) = delete;

  // The operations of FrontKernels (solvers/multifrontal/multifrontal_kernels.hpp), each queued on
  // the fronts' stream.
  void add_to_panels(const std::int64_t* position, const T* value, std::int64_t count) override;
  T* new_update(std::int64_t r) override;
  T* upload_update(const T* host, std::int64_t r) override;
  void release(T* update) override;
  void extend_add(const T* child, std::int64_t rc, std::int64_t map, std::int64_t into_panel, std::int64_t panel,
                  std::int64_t m, std::int64_t k, T* update) override;
  void eliminate(std::int64_t panel, std::int64_t m, std::int64_t k, T* update, std::int64_t front) override;
  Failure finish() override;
  void gather_from_panels(const std::int64_t* position, std::int64_t count, T* host) const override;
  void upload_x(const T* host) override;
  void download_x(T* host) override;
  void forward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below) override;
  void backward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below) override;
  std::vector<EliminationTimes> elimination_seconds() const override;
  std::int64_t peak_bytes() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Device memory free now, in bytes.
std::int64_t free_device_bytes();

extern template class DeviceFronts<double>;
extern template class DeviceFronts<float>;

}  // namespace fem::kernels::cuda

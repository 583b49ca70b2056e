// The multifrontal method's kernels (solvers/multifrontal/multifrontal_kernels.hpp) on CUDA: the
// fronts are this folder's DeviceFronts.
#include "solvers/multifrontal/multifrontal_kernels.hpp"

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/device_fronts.hpp"

namespace fem::kernels::cuda {

namespace {

class CudaMultifrontalKernels final : public multifrontal::MultifrontalKernels {
 public:
  std::string unavailable_reason() const override { return cuda::unavailable_reason(); }
  std::int64_t free_device_bytes() const override { return cuda::free_device_bytes(); }
  std::int64_t workspace_entries(std::int64_t largest_front) const override {
    return DeviceFronts<double>::workspace_entries(largest_front);
  }
  std::unique_ptr<multifrontal::FrontKernels<double>> make_fronts_fp64(const FrontLayout& layout) const override {
    return std::make_unique<DeviceFronts<double>>(layout);
  }
  std::unique_ptr<multifrontal::FrontKernels<float>> make_fronts_fp32(const FrontLayout& layout) const override {
    return std::make_unique<DeviceFronts<float>>(layout);
  }
};

}  // namespace

const multifrontal::MultifrontalKernels& multifrontal_kernels() {
  static const CudaMultifrontalKernels kernels;
  return kernels;
}

}  // namespace fem::kernels::cuda

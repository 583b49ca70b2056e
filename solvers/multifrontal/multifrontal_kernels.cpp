#include "solvers/multifrontal/multifrontal_kernels.hpp"

#include "fem/config.hpp"

namespace fem::multifrontal {

const MultifrontalKernels* multifrontal_kernels_for(const std::string& device) {
  // A build without a back-end leaves its branch out, and with it the call into its folder.
  if constexpr (FEM_WITH_CUDA) {
    if (device == "cuda") return &kernels::cuda::multifrontal_kernels();
  }
  return nullptr;
}

}  // namespace fem::multifrontal

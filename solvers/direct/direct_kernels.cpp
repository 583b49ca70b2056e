#include "solvers/direct/direct_kernels.hpp"

#include "fem/config.hpp"

namespace fem::band {

const DirectKernels* direct_kernels_for(const kernels::DenseBackend& backend) {
  // A build without a back-end leaves its branch out, and with it the call into its folder.
  if constexpr (FEM_WITH_CUDA) {
    if (backend.name() == "cublas") return &kernels::cuda::direct_kernels();
  }
  return nullptr;
}

}  // namespace fem::band

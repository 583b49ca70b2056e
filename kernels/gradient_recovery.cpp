// The recoverer asks its back-end folder only when the build has it (as stiffness_assembler.cpp).
#include "kernels/gradient_recovery.hpp"

#include "fem/config.hpp"
#include "kernels/cuda/gradient_recovery_cuda.hpp"

namespace fem::kernels {

std::unique_ptr<GradientRecoverer> cuda_gradient_recoverer() {
  if constexpr (FEM_WITH_CUDA) return cuda::make_gradient_recoverer();
  else return nullptr;
}

}  // namespace fem::kernels

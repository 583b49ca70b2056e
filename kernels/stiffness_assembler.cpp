// The assembler asks its back-end folder only when the build has it: a call in a discarded
// `if constexpr` branch is left out of the binary.
#include "kernels/stiffness_assembler.hpp"

#include "fem/config.hpp"
#include "kernels/cuda/stiffness_assembly_cuda.hpp"

namespace fem::kernels {

std::unique_ptr<StiffnessAssembler> cuda_stiffness_assembler() {
  if constexpr (FEM_WITH_CUDA) return cuda::make_stiffness_assembler();
  else return nullptr;
}

}  // namespace fem::kernels

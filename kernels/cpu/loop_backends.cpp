#include "kernels/cpu/loop_backends.hpp"

#include <omp.h>

namespace fem::kernels::cpu {

std::string OpenMPBackend::description() const {
  return "OpenMP packed cache-blocked GEMM, " + std::to_string(omp_get_max_threads()) + " threads";
}

}  // namespace fem::kernels::cpu

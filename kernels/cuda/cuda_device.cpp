#include "kernels/cuda/cuda_device.hpp"

#include <cuda_runtime.h>

namespace fem::kernels::cuda {

std::size_t free_memory() {
  std::size_t free = 0, total = 0;
  return cudaMemGetInfo(&free, &total) == cudaSuccess ? free : 0;
}

std::string runtime_version() {
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  return std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
}

}  // namespace fem::kernels::cuda

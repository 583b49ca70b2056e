#include "kernels/cuda/device_buffer.hpp"

#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

void* allocate_device_bytes(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  return p;
}

void free_device_bytes(void* p) noexcept { cudaFree(p); }

void copy_bytes_to_device(void* device, const void* host, std::size_t bytes) {
  check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void copy_bytes_to_host(void* host, const void* device, std::size_t bytes) {
  check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

void zero_device_bytes(void* device, std::size_t bytes) { check(cudaMemset(device, 0, bytes), "cudaMemset"); }

}  // namespace fem::kernels::cuda

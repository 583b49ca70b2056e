#include "kernels/cuda/device_buffer.hpp"

#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/staged_upload.hpp"

namespace fem::kernels::cuda {

void* allocate_device_bytes(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMalloc(&p, std::max<std::size_t>(bytes, 1)), "cudaMalloc");
  return p;
}

void free_device_bytes(void* p) noexcept { cudaFree(p); }

// Copies from this size on go through pinned staging (several times faster from or to pageable memory);
// smaller ones directly, where staging would gain little beside pinning its buffers on first use.
constexpr std::size_t kStagedUploadBytes = std::size_t{4} << 20;

void copy_bytes_to_device(void* device, const void* host, std::size_t bytes) {
  if (bytes >= kStagedUploadBytes) return staged_copy_to_device(device, host, bytes);
  check(cudaMemcpy(device, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void copy_bytes_to_host(void* host, const void* device, std::size_t bytes) {
  if (bytes >= kStagedUploadBytes) return staged_copy_to_host(host, device, bytes);
  check(cudaMemcpy(host, device, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

void zero_device_bytes(void* device, std::size_t bytes) { check(cudaMemset(device, 0, bytes), "cudaMemset"); }

}  // namespace fem::kernels::cuda

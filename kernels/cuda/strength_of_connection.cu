// The strong blocks of a level (strength_of_connection_cuda.hpp): a thread a block row, each
// norm summed in the host's order with its roundings (no fused multiply-adds), so that the device
// marks exactly the blocks the host's test would.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/strength_of_connection_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kThreads = 256;

__device__ double squared_norm(const double* block, int size) {
  double s = 0;
  for (int e = 0; e < size; ++e) s = __dadd_rn(s, __dmul_rn(block[e], block[e]));
  return s;
}

__global__ void diagonal_norms(DeviceBlockMatrix a, double* norm) {
  const auto* val = static_cast<const double*>(a.val);
  const int size = a.row_block * a.col_block;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.block_rows;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double n = 0;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) n = sqrt(squared_norm(val + k * size, size));
    norm[i] = n;
  }
}

__global__ void mark_strong(DeviceBlockMatrix a, double threshold2, const double* norm, std::uint8_t* strong) {
  const auto* val = static_cast<const double*>(a.val);
  const int size = a.row_block * a.col_block;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.block_rows;
       i += std::int64_t(gridDim.x) * blockDim.x)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int32_t j = a.col[k];
      const double norm2 = j == i ? 0.0 : squared_norm(val + k * size, size);
      strong[k] = norm2 > 0 && norm2 >= __dmul_rn(__dmul_rn(threshold2, norm[i]), norm[j]);
    }
}

}  // namespace

void strong_blocks(const DeviceBlockMatrix& a, double threshold, std::uint8_t* strong) {
  if (a.block_rows == 0) return;
  std::int64_t blocks = 0;
  copy_bytes_to_host(&blocks, a.row_ptr + a.block_rows, sizeof blocks);
  DeviceBuffer<double> norm(static_cast<std::size_t>(a.block_rows));
  DeviceBuffer<std::uint8_t> marks(static_cast<std::size_t>(std::max<std::int64_t>(blocks, 1)));
  const auto grid = static_cast<unsigned>(std::min<std::int64_t>((a.block_rows + kThreads - 1) / kThreads, 1 << 16));
  diagonal_norms<<<grid, kThreads>>>(a, norm.get());
  check(cudaGetLastError(), "diagonal_norms");
  mark_strong<<<grid, kThreads>>>(a, threshold * threshold, norm.get(), marks.get());
  check(cudaGetLastError(), "mark_strong");
  if (blocks > 0) copy_bytes_to_host(strong, marks.get(), static_cast<std::size_t>(blocks));
}

}  // namespace fem::kernels::cuda

// What AMG's setup reads of a level's values (level_values_cuda.hpp): a thread a block row, each
// norm summed in the host's order with its roundings (no fused multiply-adds), so that the device
// finds exactly the strong blocks, and the strengths, that the host's aggregation would.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/level_values_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kThreads = 256;

__device__ double squared_norm(const double* block, int size) {
  double s = 0;
  for (int e = 0; e < size; ++e) s = __dadd_rn(s, __dmul_rn(block[e], block[e]));
  return s;
}

// Each block row's diagonal block: its norm, its diagonal entries, and which of its equations
// have no other nonzero in their row.
__global__ void diagonal_values(DeviceBlockMatrix a, double* norm, double* diagonal, char* decoupled) {
  const auto* val = static_cast<const double*>(a.val);
  const int b = a.row_block, size = b * b;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.block_rows;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    double n = 0;
    for (int r = 0; r < b; ++r) diagonal[i * b + r] = 0, decoupled[i * b + r] = 1;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const double* block = val + k * size;
      const bool on_diagonal = a.col[k] == i;
      if (on_diagonal) {
        n = sqrt(squared_norm(block, size));
        for (int r = 0; r < b; ++r) diagonal[i * b + r] = block[r * b + r];
      }
      for (int r = 0; r < b; ++r)
        for (int c = 0; c < b; ++c)
          if (block[r * b + c] != 0 && !(on_diagonal && r == c)) decoupled[i * b + r] = 0;
    }
    norm[i] = n;
  }
}

__global__ void block_strength(DeviceBlockMatrix a, double threshold2, const double* norm, float* strength) {
  const auto* val = static_cast<const double*>(a.val);
  const int size = a.row_block * a.col_block;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.block_rows;
       i += std::int64_t(gridDim.x) * blockDim.x)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int32_t j = a.col[k];
      const double norm2 = j == i ? 0.0 : squared_norm(val + k * size, size);
      const bool strong = norm2 > 0 && norm2 >= __dmul_rn(__dmul_rn(threshold2, norm[i]), norm[j]);
      strength[k] = strong ? __double2float_rn(sqrt(norm2)) : -1.0f;
    }
}

}  // namespace

void level_values(const DeviceBlockMatrix& a, double threshold, double* diagonal, char* decoupled, float* strength) {
  if (a.block_rows == 0) return;
  std::int64_t blocks = 0;
  copy_bytes_to_host(&blocks, a.row_ptr + a.block_rows, sizeof blocks);
  const auto equations = static_cast<std::size_t>(a.block_rows) * static_cast<std::size_t>(a.row_block);
  DeviceBuffer<double> norm(static_cast<std::size_t>(a.block_rows)), on_diagonal(equations);
  DeviceBuffer<char> rows_decoupled(equations);
  DeviceBuffer<float> strengths(static_cast<std::size_t>(std::max<std::int64_t>(blocks, 1)));
  const auto grid = static_cast<unsigned>(std::min<std::int64_t>((a.block_rows + kThreads - 1) / kThreads, 1 << 16));
  diagonal_values<<<grid, kThreads>>>(a, norm.get(), on_diagonal.get(), rows_decoupled.get());
  check(cudaGetLastError(), "diagonal_values");
  block_strength<<<grid, kThreads>>>(a, threshold * threshold, norm.get(), strengths.get());
  check(cudaGetLastError(), "block_strength");
  copy_bytes_to_host(diagonal, on_diagonal.get(), equations * sizeof(double));
  copy_bytes_to_host(decoupled, rows_decoupled.get(), equations);
  if (blocks > 0) copy_bytes_to_host(strength, strengths.get(), static_cast<std::size_t>(blocks) * sizeof(float));
}

}  // namespace fem::kernels::cuda

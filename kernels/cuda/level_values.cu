// What AMG's setup reads of a level's values (level_values_cuda.hpp): a thread a block row (a
// word of strong marks), each norm summed in the host's order with its roundings (no fused
// multiply-adds), so that the device finds exactly the strong blocks, and the aggregates, that
// the host's aggregation would.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/level_values_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kThreads = 256;

unsigned grid_for(std::int64_t items) {
  return static_cast<unsigned>(std::min<std::int64_t>((items + kThreads - 1) / kThreads, 1 << 16));
}

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

// A thread a word: the strong marks of blocks 32 w .. 32 w + 31, found row by row from the row
// of the first (a binary search in row_ptr).
__global__ void strong_words(DeviceBlockMatrix a, std::int64_t blocks, double threshold2, const double* norm,
                             std::uint32_t* strong) {
  const auto* val = static_cast<const double*>(a.val);
  const int size = a.row_block * a.col_block;
  const std::int64_t words = (blocks + 31) / 32;
  for (std::int64_t w = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; w < words;
       w += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t first = 32 * w, last = min(first + 32, blocks);
    std::int64_t low = 0, high = a.block_rows;  // the last row whose start is at most `first`
    while (high - low > 1) {
      const std::int64_t mid = (low + high) / 2;
      if (a.row_ptr[mid] <= first) low = mid;
      else high = mid;
    }
    std::int64_t i = low;
    std::uint32_t bits = 0;
    for (std::int64_t k = first; k < last; ++k) {
      while (a.row_ptr[i + 1] <= k) ++i;
      const std::int32_t j = a.col[k];
      const double norm2 = j == i ? 0.0 : squared_norm(val + k * size, size);
      if (norm2 > 0 && norm2 >= __dmul_rn(__dmul_rn(threshold2, norm[i]), norm[j])) bits |= 1u << (k - first);
    }
    strong[w] = bits;
  }
}

__global__ void join_leftover_nodes(DeviceBlockMatrix a, const std::uint32_t* strong, const std::int32_t* of,
                                    std::int32_t* joined) {
  const auto* val = static_cast<const double*>(a.val);
  const int size = a.row_block * a.col_block;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < a.block_rows;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    std::int32_t to = of[i];
    if (to < 0) {
      double best = 0;
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
        if (!((strong[k >> 5] >> (k & 31)) & 1u) || of[a.col[k]] < 0) continue;
        const double sij = __double2float_rn(sqrt(squared_norm(val + k * size, size)));
        if (sij > best) best = sij, to = of[a.col[k]];
      }
    }
    joined[i] = to;
  }
}

}  // namespace

void level_values(const DeviceBlockMatrix& a, double threshold, double* diagonal, char* decoupled,
                  DeviceBuffer<std::uint32_t>& strong) {
  std::int64_t blocks = 0;
  if (a.block_rows > 0) copy_bytes_to_host(&blocks, a.row_ptr + a.block_rows, sizeof blocks);
  strong = DeviceBuffer<std::uint32_t>(static_cast<std::size_t>((blocks + 31) / 32));
  if (a.block_rows == 0) return;
  const auto equations = static_cast<std::size_t>(a.block_rows) * static_cast<std::size_t>(a.row_block);
  DeviceBuffer<double> norm(static_cast<std::size_t>(a.block_rows)), on_diagonal(equations);
  DeviceBuffer<char> rows_decoupled(equations);
  diagonal_values<<<grid_for(a.block_rows), kThreads>>>(a, norm.get(), on_diagonal.get(), rows_decoupled.get());
  check(cudaGetLastError(), "diagonal_values");
  if (blocks > 0) {
    strong_words<<<grid_for((blocks + 31) / 32), kThreads>>>(a, blocks, threshold * threshold, norm.get(), strong.get());
    check(cudaGetLastError(), "strong_words");
  }
  copy_bytes_to_host(diagonal, on_diagonal.get(), equations * sizeof(double));
  copy_bytes_to_host(decoupled, rows_decoupled.get(), equations);
}

void join_leftovers(const DeviceBlockMatrix& a, const std::uint32_t* strong, const std::int32_t* of, std::int32_t* joined) {
  if (a.block_rows == 0) return;
  join_leftover_nodes<<<grid_for(a.block_rows), kThreads>>>(a, strong, of, joined);
  check(cudaGetLastError(), "join_leftover_nodes");
}

}  // namespace fem::kernels::cuda

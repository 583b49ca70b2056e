// A T, its damping into P and R = P^T on the device (smoothed_transfer_cuda.hpp).
//   A T: a warp a fine row; each distinct aggregate among the row's neighbours is one block of
//        A T, placed by its rank among them (the row's columns ascending) and summed over the
//        row's blocks in their order (no atomics: the same bits every run).
//   R:   P's blocks sorted by (column, row) with CUB's radix sort, each then transposed.
#include <cuda_runtime.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstddef>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/smoothed_transfer_cuda.hpp"
#include "kernels/cuda/transfer_shapes.cuh"

namespace fem::kernels::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowCap = 256;  // A's blocks in one row that the product's row buffer holds

unsigned grid_for(std::int64_t items, int per_block) {
  const std::int64_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(std::clamp<std::int64_t>(blocks, 1, std::int64_t{1} << 20));
}

struct ProductArgs {
  std::int64_t rows = 0;
  const std::int64_t* a_ptr = nullptr;
  const std::int32_t* a_col = nullptr;
  const double* a_val = nullptr;
  const std::int32_t* t_col = nullptr;
  const double* t_val = nullptr;
  std::int64_t* counts = nullptr;         // the pattern pass: each row's blocks
  const std::int64_t* out_ptr = nullptr;  // the value pass
  std::int32_t* out_col = nullptr;
  double* out_val = nullptr;
  int* overflow = nullptr;
};

template <int B, int K, bool Values>
__global__ void __launch_bounds__(kThreads) tentative_rows(ProductArgs g) {
  __shared__ int columns[kWarps][kRowCap];
  __shared__ unsigned char first[kWarps][kRowCap];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int* const c = columns[warp];
  unsigned char* const f = first[warp];
  for (std::int64_t i = std::int64_t(blockIdx.x) * kWarps + warp; i < g.rows; i += std::int64_t(gridDim.x) * kWarps) {
    const std::int64_t start = g.a_ptr[i];
    const int n = static_cast<int>(g.a_ptr[i + 1] - start);
    if (n > kRowCap) {
      if (lane == 0) atomicExch(g.overflow, 1);
      continue;
    }
    for (int e = lane; e < n; e += 32) c[e] = g.t_col[g.a_col[start + e]];
    __syncwarp();
    int distinct = 0;
    for (int e = lane; e < n; e += 32) {  // the first of each aggregate among the row's blocks
      bool is_first = c[e] >= 0;
      for (int o = 0; o < e && is_first; ++o) is_first = c[o] != c[e];
      f[e] = is_first;
      distinct += is_first;
    }
    for (int step = 16; step > 0; step /= 2) distinct += __shfl_xor_sync(0xffffffffu, distinct, step);
    __syncwarp();
    if constexpr (!Values) {
      if (lane == 0) g.counts[i] = distinct;
    } else {
      for (int e = lane; e < n; e += 32) {
        if (!f[e]) continue;
        int rank = 0;
        for (int o = 0; o < n; ++o) rank += f[o] && c[o] < c[e];
        double acc[B * K] = {};
        for (int o = e; o < n; ++o) {
          if (c[o] != c[e]) continue;
          const double* ab = g.a_val + (start + o) * (B * B);
          const double* tb = g.t_val + std::int64_t(g.a_col[start + o]) * (B * K);
#pragma unroll
          for (int r = 0; r < B; ++r)
#pragma unroll
            for (int q = 0; q < K; ++q)
#pragma unroll
              for (int m = 0; m < B; ++m) acc[r * K + q] += ab[r * B + m] * tb[m * K + q];
        }
        const std::int64_t at = g.out_ptr[i] + rank;
        g.out_col[at] = c[e];
#pragma unroll
        for (int v = 0; v < B * K; ++v) g.out_val[at * (B * K) + v] = acc[v];
      }
    }
    __syncwarp();  // the row's buffers are read no more
  }
}

template <bool Values>
void launch_product(int b, int k, const ProductArgs& g) {
  const unsigned blocks = grid_for(g.rows, kWarps);
  with_transfer_shape(b, k, "tentative_rows", [&](auto B, auto K) {
    tentative_rows<decltype(B)::value, decltype(K)::value, Values><<<blocks, kThreads>>>(g);
  });
  check(cudaGetLastError(), "tentative_rows");
}

// ptr[0] = 0 and ptr[1..n] the running sums of counts[0..n).
void running_sums(const std::int64_t* counts, std::int64_t* ptr, std::int64_t n) {
  check(cudaMemset(ptr, 0, sizeof(std::int64_t)), "cudaMemset");
  if (n == 0) return;
  std::size_t bytes = 0;
  check(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, ptr + 1, n), "cub::DeviceScan");
  DeviceBuffer<char> scratch(bytes);
  check(cub::DeviceScan::InclusiveSum(scratch.get(), bytes, counts, ptr + 1, n), "cub::DeviceScan");
}

std::int64_t last_of(const std::int64_t* ptr, std::int64_t n) {
  std::int64_t last = 0;
  copy_bytes_to_host(&last, ptr + n, sizeof last);
  return last;
}

// The row starts of `rows` rows, unset.
DeviceBytes row_starts(std::int64_t rows) { return DeviceBytes(static_cast<std::size_t>(rows + 1) * sizeof(std::int64_t)); }

// Blocks with these row starts, their arrays sized for `blocks` blocks of r x c doubles.
std::unique_ptr<DeviceBlocks> blocks_of(DeviceBytes row_ptr, std::int64_t rows, std::int64_t blocks, int r, int c) {
  auto m = std::make_unique<DeviceBlocks>(DeviceBlocks{
      std::move(row_ptr), DeviceBytes(static_cast<std::size_t>(blocks) * sizeof(std::int32_t)),
      DeviceBytes(static_cast<std::size_t>(blocks) * r * c * sizeof(double)), DeviceBlockMatrix{}});
  m->form.row_block = r;
  m->form.col_block = c;
  m->form.double_values = true;
  m->form.block_rows = rows;
  m->form.row_ptr = static_cast<const std::int64_t*>(m->row_ptr.data());
  m->form.col = static_cast<const std::int32_t*>(m->col.data());
  m->form.val = m->val.data();
  return m;
}

template <int B, int K>
__global__ void damp_rows(std::int64_t rows, const std::int64_t* ptr, const std::int32_t* col, double* val,
                          const std::int32_t* t_col, const double* t_val, const double* inv_diag, double omega) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < rows;
       i += std::int64_t(gridDim.x) * blockDim.x)
    for (auto k = ptr[i]; k < ptr[i + 1]; ++k) {
      const bool tentative = col[k] == t_col[i];
#pragma unroll
      for (int r = 0; r < B; ++r) {
        const double scale = -omega * inv_diag[i * B + r];
#pragma unroll
        for (int q = 0; q < K; ++q) {
          double& v = val[k * (B * K) + r * K + q];
          v *= scale;
          if (tentative) v += t_val[i * (B * K) + r * K + q];
        }
      }
    }
}

// Each block's sort key (its column, then its row) and its place in P, and the columns' counts.
__global__ void transpose_keys(std::int64_t rows, const std::int64_t* ptr, const std::int32_t* col,
                               unsigned long long* keys, std::int64_t* place, unsigned long long* counts) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < rows;
       i += std::int64_t(gridDim.x) * blockDim.x)
    for (auto k = ptr[i]; k < ptr[i + 1]; ++k) {
      keys[k] = (static_cast<unsigned long long>(col[k]) << 32) | static_cast<unsigned long long>(i);
      place[k] = k;
      atomicAdd(&counts[col[k]], 1ull);
    }
}

__global__ void transpose_blocks(std::int64_t blocks, int r, int c, const unsigned long long* keys,
                                 const std::int64_t* place, const double* from, std::int32_t* col, double* into) {
  for (std::int64_t s = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; s < blocks;
       s += std::int64_t(gridDim.x) * blockDim.x) {
    col[s] = static_cast<std::int32_t>(keys[s] & 0xffffffffull);
    const double* b = from + place[s] * (r * c);
    for (int x = 0; x < r; ++x)
      for (int y = 0; y < c; ++y) into[s * (r * c) + y * r + x] = b[x * c + y];
  }
}

int bits_for(std::int64_t n) {
  int bits = 1;
  while (bits < 63 && (std::int64_t{1} << bits) <= n) ++bits;
  return bits;
}

}  // namespace

std::unique_ptr<DeviceBlocks> tentative_product(const DeviceBlockMatrix& a, const DeviceTentative& t) {
  const int b = a.row_block, k = t.col_block;
  if (!a.double_values || a.col_block != b || t.row_block != b || !has_transfer_kernel(b, k)) return nullptr;
  ProductArgs g;
  g.rows = a.block_rows;
  g.a_ptr = a.row_ptr;
  g.a_col = a.col;
  g.a_val = static_cast<const double*>(a.val);
  g.t_col = static_cast<const std::int32_t*>(t.col.data());
  g.t_val = static_cast<const double*>(t.val.data());
  DeviceBuffer<int> overflow(1);
  overflow.zero();
  g.overflow = overflow.get();
  DeviceBuffer<std::int64_t> counts(static_cast<std::size_t>(std::max<std::int64_t>(g.rows, 1)));
  g.counts = counts.get();
  launch_product<false>(b, k, g);
  int overflowed = 0;
  overflow.download(&overflowed);
  if (overflowed) return nullptr;
  DeviceBytes ptr = row_starts(g.rows);
  running_sums(counts.get(), static_cast<std::int64_t*>(ptr.data()), g.rows);
  const std::int64_t blocks = last_of(static_cast<const std::int64_t*>(ptr.data()), g.rows);
  auto at = blocks_of(std::move(ptr), g.rows, blocks, b, k);
  g.counts = nullptr;
  g.out_ptr = at->form.row_ptr;
  g.out_col = static_cast<std::int32_t*>(at->col.data());
  g.out_val = static_cast<double*>(at->val.data());
  launch_product<true>(b, k, g);
  check(cudaStreamSynchronize(0), "tentative_rows (values)");
  return at;
}

void damp(DeviceBlocks& at, const DeviceTentative& t, const double* inv_diag, double omega) {
  const auto& f = at.form;
  const auto* t_col = static_cast<const std::int32_t*>(t.col.data());
  const auto* t_val = static_cast<const double*>(t.val.data());
  auto* val = static_cast<double*>(at.val.data());
  const unsigned blocks = grid_for(f.block_rows, kThreads);
  with_transfer_shape(f.row_block, f.col_block, "cuda damp", [&](auto B, auto K) {
    damp_rows<decltype(B)::value, decltype(K)::value>
        <<<blocks, kThreads>>>(f.block_rows, f.row_ptr, f.col, val, t_col, t_val, inv_diag, omega);
  });
  check(cudaGetLastError(), "damp_rows");
}

std::unique_ptr<DeviceBlocks> transpose(const DeviceBlocks& p, std::int64_t block_cols) {
  const auto& f = p.form;
  const auto blocks = static_cast<std::int64_t>(p.col.bytes() / sizeof(std::int32_t));
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(blocks, 1));
  DeviceBuffer<unsigned long long> keys(n), sorted_keys(n);
  DeviceBuffer<std::int64_t> place(n), sorted_place(n);
  DeviceBuffer<unsigned long long> counts(static_cast<std::size_t>(std::max<std::int64_t>(block_cols, 1)));
  counts.zero();
  transpose_keys<<<grid_for(f.block_rows, kThreads), kThreads>>>(f.block_rows, f.row_ptr, f.col, keys.get(),
                                                                  place.get(), counts.get());
  check(cudaGetLastError(), "transpose_keys");
  std::size_t bytes = 0;
  const int end_bit = 32 + bits_for(block_cols);
  check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys.get(), sorted_keys.get(), place.get(), sorted_place.get(),
                                        blocks, 0, end_bit),
        "cub::DeviceRadixSort");
  {
    DeviceBuffer<char> scratch(bytes);
    check(cub::DeviceRadixSort::SortPairs(scratch.get(), bytes, keys.get(), sorted_keys.get(), place.get(),
                                          sorted_place.get(), blocks, 0, end_bit),
          "cub::DeviceRadixSort");
  }
  DeviceBytes ptr = row_starts(block_cols);
  static_assert(sizeof(unsigned long long) == sizeof(std::int64_t));
  running_sums(reinterpret_cast<const std::int64_t*>(counts.get()), static_cast<std::int64_t*>(ptr.data()), block_cols);
  auto r = blocks_of(std::move(ptr), block_cols, blocks, f.col_block, f.row_block);
  transpose_blocks<<<grid_for(blocks, kThreads), kThreads>>>(blocks, f.row_block, f.col_block, sorted_keys.get(),
                                                             sorted_place.get(), static_cast<const double*>(p.val.data()),
                                                             static_cast<std::int32_t*>(r->col.data()),
                                                             static_cast<double*>(r->val.data()));
  check(cudaGetLastError(), "transpose_blocks");
  check(cudaStreamSynchronize(0), "transpose_blocks");
  return r;
}

}  // namespace fem::kernels::cuda

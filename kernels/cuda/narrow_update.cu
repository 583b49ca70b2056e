// narrow_update (narrow_update.hpp): a block of 8 warps a 64-row slab of C, each warp 16 rows by
// 32 columns (4 m16n8k16 tiles: lane g = lane / 4, t = lane % 4 gives A(g + 8 (i % 2), t + 4 (i / 2))
// and B(t + 4 i, g), holds D(g + 8 (i / 2), 2 t + i % 2)), X's rows and the first `width` rows
// (the columns' factors) in shared memory 32 entries of k at a time.

#include <stdexcept>
#include <string>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/block_column_strip.cuh"  // mma_16x8x16
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/narrow_update.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int slab_rows = 64, columns = block_column_width, chunk = 32;
constexpr int pitch = chunk + 4;  // 4 mod 16 doubles: the fragments' 8 rows x 4 hit distinct banks
constexpr int threads = 256;

__global__ void __launch_bounds__(threads) narrow_update_kernel(const double* x, double* c, long long rows, int width,
                                                                int k, long long ld) {
  __shared__ __align__(16) double slab[slab_rows][pitch];   // X's rows of this block, a chunk of k
  __shared__ __align__(16) double factor[columns][pitch];   // X's first `width` rows, the same chunk
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int row0 = (warp / 2) * 16, col0 = (warp % 2) * 32;  // the warp's part of the slab's 64 x 64
  const long long first = static_cast<long long>(blockIdx.x) * slab_rows;
  double acc[4][4] = {};
  // The next chunk's entries come into registers while this one's are multiplied: every load of
  // a chunk in flight at once, and behind the products.
  constexpr int per_thread = slab_rows * chunk / threads;
  double next_slab[per_thread], next_factor[per_thread];
  const auto fetch = [&](int k0) {
#pragma unroll
    for (int q = 0; q < per_thread; ++q) {
      const int e = threadIdx.x + q * threads, r = e / chunk, l = e % chunk;
      const bool in = k0 + l < k;
      next_slab[q] = in && first + r < rows ? x[(first + r) * ld + k0 + l] : 0.0;
      next_factor[q] = in && r < width ? x[r * ld + k0 + l] : 0.0;
    }
  };
  fetch(0);
  for (int k0 = 0; k0 < k; k0 += chunk) {
#pragma unroll
    for (int q = 0; q < per_thread; ++q) {
      const int e = threadIdx.x + q * threads, r = e / chunk, l = e % chunk;
      slab[r][l] = next_slab[q];
      factor[r][l] = next_factor[q];
    }
    __syncthreads();
    if (k0 + chunk < k) fetch(k0 + chunk);
#pragma unroll
    for (int l0 = 0; l0 < chunk; l0 += 16) {
      double a[8];
#pragma unroll
      for (int i = 0; i < 8; ++i) a[i] = slab[row0 + g + 8 * (i % 2)][l0 + t + 4 * (i / 2)];
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        double b[4];  // B(l, j) = X(col0 + 8 n + j, l)
#pragma unroll
        for (int i = 0; i < 4; ++i) b[i] = factor[col0 + 8 * n + g][l0 + t + 4 * i];
        block_column_device::mma_16x8x16(acc[n], a, b);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int n = 0; n < 4; ++n)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const long long row = first + row0 + g + 8 * (i / 2);
      const int column = col0 + 8 * n + 2 * t + i % 2;
      if (row < rows && column < width && column <= row) c[row * ld + column] -= acc[n][i];
    }
}

}  // namespace

void narrow_update(const double* x, double* c, long long rows, int width, int k, long long ld, cudaStream_t stream) {
  if (width < 1 || width > columns || rows < width || k < 1 || ld < width)
    throw std::invalid_argument("narrow_update: " + std::to_string(rows) + " rows, width " + std::to_string(width) +
                                " (1 to " + std::to_string(columns) + "), k " + std::to_string(k) +
                                ", leading dimension " + std::to_string(ld));
  narrow_update_kernel<<<static_cast<unsigned>((rows + slab_rows - 1) / slab_rows), threads, 0, stream>>>(x, c, rows,
                                                                                                     width, k, ld);
  check(cudaGetLastError(), "launch of the narrow update");
}

}  // namespace fem::kernels::cuda

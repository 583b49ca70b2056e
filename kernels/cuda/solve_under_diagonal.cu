#include "kernels/cuda/solve_under_diagonal.hpp"

#include <stdexcept>
#include <string>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int slab_rows = 64, width_max = block_column_width, panel = 8, threads = 256;
constexpr int pitch = width_max + 4;  // 4 mod 16 doubles: an m8n8k4 fragment (8 rows x 4) hits distinct banks
constexpr int shared_bytes = (slab_rows + width_max) * pitch * static_cast<int>(sizeof(double));

// out(i, j) += sum over l in [0, k) of a(i, l) c(j, l), i, j < 8, for one warp: lane (g = lane / 4,
// t = lane % 4) gives a(g, l + t) and c(g, l + t) a step and holds out(g, 2 t), out(g, 2 t + 1).
__device__ inline void add_tile_product(double& o0, double& o1, const double* a, const double* c, int k) {
  const int g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
  for (int l = 0; l < k; l += 4)
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
        : "+d"(o0), "+d"(o1)
        : "d"(a[g * pitch + l + t]), "d"(c[g * pitch + l + t]));
}

// Two blocks a multiprocessor (128 registers, 28 bytes spilled, where 158 left room for one):
// beside the trailing SYRKs each launch waits for multiprocessors to come free, and needs half as
// many so.
__global__ void __launch_bounds__(threads, 2) solve_kernel(const double* l, double* b, long long rows, int width,
                                                           long long ld, int solved) {
  // The slab's rows (B, then X), and L (zero above the diagonal and past width, then X(0 : solved, :)).
  extern __shared__ __align__(16) double shared[];
  double(*xs)[pitch] = reinterpret_cast<double(*)[pitch]>(shared);
  double(*ls)[pitch] = reinterpret_cast<double(*)[pitch]>(shared + slab_rows * pitch);
  __shared__ double inverse[width_max];  // 1 / L(j, j); 0 past width, so that X stays 0 there
  const int warp = threadIdx.x / 32, g = threadIdx.x % 32 / 4, t = threadIdx.x % 4;
  const long long first = static_cast<long long>(blockIdx.x) * slab_rows;
  // Every load issued before the first store: one trip to memory, not one an entry.
  constexpr int per_thread = width_max * width_max / threads;
  double lv[per_thread], bv[per_thread], nv[per_thread];  // L, B, and X(0 : solved, :) for the update
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int e = threadIdx.x + q * threads, i = e / width_max, j = e % width_max;
    lv[q] = j <= i && i < width ? l[i * ld + j] : 0.0;
    bv[q] = j < width && first + i < rows ? b[(first + i) * ld + j] : 0.0;
    nv[q] = i < solved && j < width ? b[i * ld + j] : 0.0;
  }
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int e = threadIdx.x + q * threads, i = e / width_max, j = e % width_max;
    ls[i][j] = lv[q];
    xs[i][j] = bv[q];
  }
  if (threadIdx.x < width_max) inverse[threadIdx.x] = threadIdx.x < width ? 1.0 / l[threadIdx.x * (ld + 1)] : 0.0;
  __syncthreads();
  for (int p = 0; p < width_max; p += panel) {
    // Panel p's columns take the update of the solved ones: warp w its 8 rows.
    if (p > 0) {
      double o0 = 0, o1 = 0;
      add_tile_product(o0, o1, &xs[8 * warp][0], &ls[p][0], p);
      xs[8 * warp + g][p + 2 * t] -= o0;
      xs[8 * warp + g][p + 2 * t + 1] -= o1;
    }
    __syncthreads();
    // Its 8 x 8 triangle, a thread a row: x_j = (b_j - sum over k < j of x_k L(j, k)) / L(j, j).
    if (threadIdx.x < slab_rows) {
      double x[panel];
#pragma unroll
      for (int j = 0; j < panel; ++j) x[j] = xs[threadIdx.x][p + j];
#pragma unroll
      for (int j = 0; j < panel; ++j) {
        x[j] *= inverse[p + j];
#pragma unroll
        for (int k = j + 1; k < panel; ++k) x[k] -= x[j] * ls[p + k][p + j];
      }
#pragma unroll
      for (int j = 0; j < panel; ++j) xs[threadIdx.x][p + j] = x[j];
    }
    __syncthreads();
  }
  // The rows that came solved keep what they hold (their X is that of the block column kernel).
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int e = threadIdx.x + q * threads, i = e / width_max, j = e % width_max;
    const long long row = first + i;
    if (j < width && row >= solved && row < rows) b[row * ld + j] = xs[i][j];
  }
  if (solved == 0) return;
  __syncthreads();  // L is read no more
#pragma unroll
  for (int q = 0; q < per_thread; ++q) {
    const int e = threadIdx.x + q * threads, i = e / width_max, j = e % width_max;
    ls[i][j] = nv[q];
    if (first + i < solved) xs[i][j] = nv[q];
  }
  __syncthreads();
  // C(r, c) -= X(r, :) X(c, :)ᵀ, on and below the diagonal of the next block: warp w its 8 rows,
  // the 8 column tiles' products interleaved.
  double o[width_max / 8][2] = {};
#pragma unroll
  for (int l = 0; l < width_max; l += 4) {
    const double a = xs[8 * warp + g][l + t];
#pragma unroll
    for (int n = 0; n < width_max / 8; ++n)
      if (8 * n < solved)
        asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
            : "+d"(o[n][0]), "+d"(o[n][1])
            : "d"(a), "d"(ls[8 * n + g][l + t]));
  }
  const long long row = first + 8 * warp + g;
#pragma unroll
  for (int n = 0; n < width_max / 8; ++n)
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int column = 8 * n + 2 * t + i;
      if (row < rows && column < solved && column <= row) b[row * ld + width + column] -= o[n][i];
    }
}

}  // namespace

void solve_under_diagonal(const double* l, double* b, long long rows, int width, long long ld, int solved,
                          cudaStream_t stream) {
  if (width < 1 || width > width_max || rows < 0 || ld < width || solved < 0 || solved > width || solved > rows ||
      (solved > 0 && ld < width + solved))
    throw std::invalid_argument("solve_under_diagonal: width " + std::to_string(width) + " (1 to " +
                                std::to_string(width_max) + "), " + std::to_string(rows) + " rows, " +
                                std::to_string(solved) + " solved, leading dimension " + std::to_string(ld));
  if (rows == 0) return;
  static const bool sized = [] {  // more than the 48 KB a block gets unasked
    check(cudaFuncSetAttribute(solve_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
          "cudaFuncSetAttribute (solve under a diagonal block)");
    return true;
  }();
  (void)sized;
  solve_kernel<<<static_cast<unsigned>((rows + slab_rows - 1) / slab_rows), threads, shared_bytes, stream>>>(
      l, b, rows, width, ld, solved);
  check(cudaGetLastError(), "launch of the solve under a diagonal block");
}

}  // namespace fem::kernels::cuda

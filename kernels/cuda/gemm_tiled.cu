// The classic shared-memory tiled GEMM on CUDA cores: a block stages BK-deep slices of a
// BM x K panel of A and a K x BN panel of B in shared memory; each thread accumulates a
// 4 x 4 register block whose rows and columns are 16 apart, so shared reads are broadcasts or
// conflict-free and the stores to C are coalesced.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int threads_side = 16;
constexpr int per_thread = 4;
constexpr int tile_mn = threads_side * per_thread;  // 64
constexpr int tile_k = 16;

template <class T>
__global__ void __launch_bounds__(threads_side* threads_side)
    gemm_tiled_kernel(GemmCall<T> g) {
  const int row0 = blockIdx.y * tile_mn;
  const int col0 = blockIdx.x * tile_mn;
  if (g.lower && col0 > row0 + tile_mn - 1) return;  // block above the diagonal

  __shared__ T as[tile_k][tile_mn + 1];  // as[kk][r] = A(row0 + r, k0 + kk)
  __shared__ T bs[tile_k][tile_mn];      // bs[kk][c] = B(k0 + kk, col0 + c)
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * threads_side + tx;
  T acc[per_thread][per_thread] = {};

  for (int k0 = 0; k0 < g.k; k0 += tile_k) {
    for (int e = tid; e < tile_mn * tile_k; e += threads_side * threads_side) {
      // A: consecutive threads along k when A rows are contiguous, along rows otherwise.
      const bool a_rows_contiguous = g.a.col_stride == 1;
      const int ar = a_rows_contiguous ? e / tile_k : e % tile_mn;
      const int ak = a_rows_contiguous ? e % tile_k : e / tile_mn;
      const int gi = row0 + ar, gk = k0 + ak;
      as[ak][ar] = gi < g.m && gk < g.k ? g.a.data[gi * g.a.row_stride + gk * g.a.col_stride] : T(0);
      const bool b_rows_contiguous = g.b.col_stride == 1;
      const int bc = b_rows_contiguous ? e % tile_mn : e / tile_k;
      const int bk = b_rows_contiguous ? e / tile_mn : e % tile_k;
      const int gj = col0 + bc, gk2 = k0 + bk;
      bs[bk][bc] = gj < g.n && gk2 < g.k ? g.b.data[gk2 * g.b.row_stride + gj * g.b.col_stride] : T(0);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < tile_k; ++kk) {
      T a_reg[per_thread], b_reg[per_thread];
#pragma unroll
      for (int r = 0; r < per_thread; ++r) a_reg[r] = as[kk][ty + threads_side * r];
#pragma unroll
      for (int c = 0; c < per_thread; ++c) b_reg[c] = bs[kk][tx + threads_side * c];
#pragma unroll
      for (int r = 0; r < per_thread; ++r)
#pragma unroll
        for (int c = 0; c < per_thread; ++c) acc[r][c] += a_reg[r] * b_reg[c];
    }
    __syncthreads();
  }

#pragma unroll
  for (int r = 0; r < per_thread; ++r)
#pragma unroll
    for (int c = 0; c < per_thread; ++c) {
      const int i = row0 + ty + threads_side * r, j = col0 + tx + threads_side * c;
      if (i >= g.m || j >= g.n || (g.lower && j > i)) continue;
      T& out = g.c[i * g.ldc + j];
      out = g.beta == T(0) ? g.alpha * acc[r][c] : g.alpha * acc[r][c] + g.beta * out;
    }
}

}  // namespace

template <class T>
void gemm_tiled(const GemmCall<T>& call) {
  const dim3 block(threads_side, threads_side);
  const dim3 grid((call.n + tile_mn - 1) / tile_mn, (call.m + tile_mn - 1) / tile_mn);
  gemm_tiled_kernel<<<grid, block>>>(call);
  check(cudaGetLastError(), "launch of the tiled GEMM kernel");
}

template void gemm_tiled<double>(const GemmCall<double>&);
template void gemm_tiled<float>(const GemmCall<float>&);

}  // namespace fem::kernels::cuda

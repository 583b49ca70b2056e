// Double-precision tiled GEMM on the FP64 tensor cores (DMMA, sm_80+), through WMMA 8x8x4
// fragments. A block of 8 warps computes a 128 x 128 tile of C, each warp a 64 x 32 part of it
// (8 x 4 fragments). BK = 16 deep slices of A and B are copied global -> shared with cp.async,
// three stages so that the copies of the next two slices overlap the products on this one. Each slice
// keeps the layout it has in global memory (rows of A contiguous, or columns when A is
// transposed; likewise B), which keeps both the copies and the fragment loads coalesced.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"

#include <mma.h>

namespace fem::kernels::cuda {

namespace {

using namespace nvcuda;

constexpr int block_m = 128, block_n = 128, block_k = 16;
constexpr int warp_m = 64, warp_n = 32;
constexpr int frag_m = 8, frag_n = 8, frag_k = 4;
constexpr int warps = (block_m / warp_m) * (block_n / warp_n);  // 8
constexpr int threads = warps * 32;
constexpr int pad = 4;  // keeps fragment rows 32-byte aligned and spreads the banks
// One operand slice: block_m x block_k (row-major) or block_k x block_m (column-major).
constexpr int slice_elems_rm = block_m * (block_k + pad);
constexpr int slice_elems_cm = block_k * (block_m + pad);
constexpr int slice_elems = slice_elems_rm > slice_elems_cm ? slice_elems_rm : slice_elems_cm;
constexpr int stages = 3;
constexpr int shared_bytes = stages * 2 * slice_elems * int(sizeof(double));

static_assert(block_m == block_n, "the A and B slices share one layout rule");

__device__ inline void cp_async8(double* shared, const double* global) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(s), "l"(global));
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int pending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

// Copies the block_k-deep slice of op(X) for `outer` rows (A) or columns (B) starting at
// `outer0` and depth k0. `contiguous_k`: X stores each outer index's k-run contiguously
// (A not transposed, B transposed); the slice is then [outer][k], otherwise [k][outer].
template <bool contiguous_k>
__device__ inline void load_slice(double* slice, const double* x, long long stride_outer,
                                  long long stride_k, int outer0, int outer_end, int k0, int k_end) {
  constexpr int elems = block_m * block_k;
  for (int e = threadIdx.x; e < elems; e += threads) {
    const int o = contiguous_k ? e / block_k : e % block_m;
    const int kk = contiguous_k ? e % block_k : e / block_m;
    double* dst = contiguous_k ? slice + o * (block_k + pad) + kk : slice + kk * (block_m + pad) + o;
    const int go = outer0 + o, gk = k0 + kk;
    if (go < outer_end && gk < k_end)
      cp_async8(dst, x + go * stride_outer + gk * stride_k);
    else
      *dst = 0.0;
  }
}

template <bool a_rows_contiguous, bool b_cols_contiguous>
__global__ void __launch_bounds__(threads) gemm_dmma_kernel(GemmCall<double> g) {
  const int row0 = blockIdx.y * block_m;
  const int col0 = blockIdx.x * block_n;
  if (g.lower && col0 > row0 + block_m - 1) return;  // block above the diagonal

  extern __shared__ __align__(128) double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp / (block_n / warp_n)) * warp_m;
  const int warp_col = (warp % (block_n / warp_n)) * warp_n;

  using layout_a = std::conditional_t<a_rows_contiguous, wmma::row_major, wmma::col_major>;
  using layout_b = std::conditional_t<b_cols_contiguous, wmma::col_major, wmma::row_major>;
  wmma::fragment<wmma::accumulator, frag_m, frag_n, frag_k, double> acc[warp_m / frag_m][warp_n / frag_n];
#pragma unroll
  for (int i = 0; i < warp_m / frag_m; ++i)
#pragma unroll
    for (int j = 0; j < warp_n / frag_n; ++j) wmma::fill_fragment(acc[i][j], 0.0);

  auto slice_a = [&](int stage) { return shared + stage * 2 * slice_elems; };
  auto slice_b = [&](int stage) { return shared + stage * 2 * slice_elems + slice_elems; };
  auto load_stage = [&](int stage, int k0) {
    // op(A)(i, k): A rows contiguous when op(A) has unit column stride.
    load_slice<a_rows_contiguous>(slice_a(stage), g.a.data, g.a.row_stride, g.a.col_stride, row0,
                                  g.m, k0, g.k);
    // op(B)(k, j): for column j the k-run is contiguous when op(B) has unit row stride.
    load_slice<b_cols_contiguous>(slice_b(stage), g.b.data, g.b.col_stride, g.b.row_stride, col0,
                                  g.n, k0, g.k);
    cp_async_commit();
  };

  // Stage s % stages holds slice s. One barrier per slice: after it, slice s has landed for
  // every thread and every warp is done with slice s - 1, whose stage the next copy refills.
  const int slices = (g.k + block_k - 1) / block_k;
#pragma unroll
  for (int s = 0; s < stages - 1; ++s)
    if (s < slices) load_stage(s, s * block_k);
    else cp_async_commit();
  for (int s = 0; s < slices; ++s) {
    cp_async_wait<stages - 2>();
    __syncthreads();
    const int next = s + stages - 1;
    if (next < slices) load_stage(next % stages, next * block_k);
    else cp_async_commit();  // an empty group keeps the wait count aligned
    const double* as = slice_a(s % stages);
    const double* bs = slice_b(s % stages);
#pragma unroll
    for (int kk = 0; kk < block_k; kk += frag_k) {
      wmma::fragment<wmma::matrix_a, frag_m, frag_n, frag_k, double, layout_a> fa[warp_m / frag_m];
      wmma::fragment<wmma::matrix_b, frag_m, frag_n, frag_k, double, layout_b> fb[warp_n / frag_n];
#pragma unroll
      for (int i = 0; i < warp_m / frag_m; ++i) {
        const int r = warp_row + i * frag_m;
        if constexpr (a_rows_contiguous)
          wmma::load_matrix_sync(fa[i], as + r * (block_k + pad) + kk, block_k + pad);
        else
          wmma::load_matrix_sync(fa[i], as + kk * (block_m + pad) + r, block_m + pad);
      }
#pragma unroll
      for (int j = 0; j < warp_n / frag_n; ++j) {
        const int c = warp_col + j * frag_n;
        if constexpr (b_cols_contiguous)
          wmma::load_matrix_sync(fb[j], bs + c * (block_k + pad) + kk, block_k + pad);
        else
          wmma::load_matrix_sync(fb[j], bs + kk * (block_n + pad) + c, block_n + pad);
      }
#pragma unroll
      for (int i = 0; i < warp_m / frag_m; ++i)
#pragma unroll
        for (int j = 0; j < warp_n / frag_n; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  }
  cp_async_wait<0>();
  __syncthreads();  // the staging area below reuses the first stage

  // Epilogue: each fragment goes through a per-warp 8 x 8 staging area so that edges, the
  // lower-triangle mask and beta are handled element by element.
  double* staging = shared + warp * frag_m * frag_n;
#pragma unroll
  for (int i = 0; i < warp_m / frag_m; ++i)
#pragma unroll
    for (int j = 0; j < warp_n / frag_n; ++j) {
      wmma::store_matrix_sync(staging, acc[i][j], frag_n, wmma::mem_row_major);
      __syncwarp();
      for (int e = lane; e < frag_m * frag_n; e += 32) {
        const int gi = row0 + warp_row + i * frag_m + e / frag_n;
        const int gj = col0 + warp_col + j * frag_n + e % frag_n;
        if (gi < g.m && gj < g.n && !(g.lower && gj > gi)) {
          double& out = g.c[gi * g.ldc + gj];
          out = g.beta == 0.0 ? g.alpha * staging[e] : g.alpha * staging[e] + g.beta * out;
        }
      }
      __syncwarp();
    }
}

template <bool a_rows_contiguous, bool b_cols_contiguous>
void launch(const GemmCall<double>& call) {
  auto kernel = gemm_dmma_kernel<a_rows_contiguous, b_cols_contiguous>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
        "raising the shared memory of the DMMA GEMM kernel");
  const dim3 grid((call.n + block_n - 1) / block_n, (call.m + block_m - 1) / block_m);
  kernel<<<grid, threads, shared_bytes>>>(call);
  check(cudaGetLastError(), "launch of the DMMA GEMM kernel");
}

}  // namespace

void gemm_dmma(const GemmCall<double>& call) {
  const bool a_rows = call.a.col_stride == 1;
  const bool b_cols = call.b.row_stride == 1 && call.b.col_stride != 1;
  if (a_rows && b_cols) launch<true, true>(call);
  else if (a_rows) launch<true, false>(call);
  else if (b_cols) launch<false, true>(call);
  else launch<false, false>(call);
}

}  // namespace fem::kernels::cuda

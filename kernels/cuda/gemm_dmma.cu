// Double-precision tiled GEMM on the FP64 tensor cores (DMMA), through the sm_90 mma.sync shape
// m16n8k16 (four times the work per instruction of the 8x8x4 shape that WMMA exposes). A block
// of 8 warps computes a 128 x 128 tile of C, each warp a 64 x 32 part of it (4 x 4 instructions
// per k16 step, accumulators in registers). block_k deep slices of A and B are copied global ->
// shared with cp.async, `stages` deep, so the copies of the next slices overlap the products on
// this one. Each slice keeps the layout it has in global memory (rows of A contiguous, or columns
// when A is transposed; likewise B), which keeps the copies coalesced; the row pitch is padded
// so that the fragment loads of a half-warp hit 16 different 8-byte bank pairs.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"
#include "kernels/cuda/mma_16x8x16.cuh"

#include <cstdint>

namespace fem::kernels::cuda {

namespace {

constexpr int block_m = 128, block_n = 128, block_k = 16;
constexpr int warp_m = 64, warp_n = 32;
constexpr int mma_m = 16, mma_n = 8, mma_k = 16;
constexpr int tiles_m = warp_m / mma_m, tiles_n = warp_n / mma_n;  // 4 x 4 per warp
constexpr int warps = (block_m / warp_m) * (block_n / warp_n);     // 8
constexpr int threads = warps * 32;
// Pitch = extent + 4: a pitch of 4 (mod 16) doubles spreads the 4 x 4 fragment pattern of a
// half-warp over all 16 bank pairs, and keeps rows 16-byte aligned for the 16-byte copies.
constexpr int pad = 4;
constexpr int slice_elems_rm = block_m * (block_k + pad);  // [outer][k]
constexpr int slice_elems_cm = block_k * (block_m + pad);  // [k][outer]
constexpr int slice_elems = slice_elems_rm > slice_elems_cm ? slice_elems_rm : slice_elems_cm;
constexpr int stages = 4;
constexpr int shared_bytes = stages * 2 * slice_elems * int(sizeof(double));
// Blocks of this many tile rows are scheduled column by column, so that the blocks resident at
// one time share their slices of A and B in L2.
constexpr int group_rows = 8;

static_assert(block_m == block_n, "the A and B slices share one layout rule");

// Copies `width` doubles (8 or 16 bytes); where `valid` is false the destination is zero-filled.
template <int width>
__device__ inline void cp_async(double* shared, const double* global, bool valid) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  const int src_bytes = valid ? width * 8 : 0;
  if constexpr (width == 2)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(global),
                 "r"(src_bytes));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(s), "l"(global),
                 "r"(src_bytes));
}
__device__ inline void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int pending>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
}

// Copies the block_k-deep slice of op(X) for `outer` rows (A) or columns (B) starting at
// `outer0` and depth k0. `contiguous_k`: X stores each outer index's k-run contiguously
// (A not transposed, B transposed); the slice is then [outer][k], otherwise [k][outer].
// `width` doubles move per copy along the contiguous direction; with width 2 the caller has
// checked that the data is 16-byte aligned and that the contiguous extent and stride are even,
// so a pair is either wholly inside X or wholly outside.
template <bool contiguous_k, int width>
__device__ inline void load_slice(double* slice, const double* x, long long stride_outer,
                                  long long stride_k, int outer0, int outer_end, int k0, int k_end) {
  constexpr int copies = block_m * block_k / width;
#pragma unroll
  for (int e0 = 0; e0 < copies; e0 += threads) {
    const int e = e0 + threadIdx.x;
    const int o = contiguous_k ? e / (block_k / width) : e % (block_m / width) * width;
    const int kk = contiguous_k ? e % (block_k / width) * width : e / (block_m / width);
    double* dst = contiguous_k ? slice + o * (block_k + pad) + kk : slice + kk * (block_m + pad) + o;
    const int go = outer0 + o, gk = k0 + kk;
    const bool valid = go < outer_end && gk < k_end;
    cp_async<width>(dst, valid ? x + go * stride_outer + gk * stride_k : x, valid);
  }
}

template <bool a_rows_contiguous, bool b_cols_contiguous, int width>
__global__ void __launch_bounds__(threads, 1) gemm_dmma_kernel(GemmCall<double> g) {
  // Block id -> tile, in groups of group_rows tile rows walked column by column.
  const int tile_rows = (g.m + block_m - 1) / block_m, tile_cols = (g.n + block_n - 1) / block_n;
  const int id = blockIdx.x;
  const int group = id / (group_rows * tile_cols);
  const int first_row = group * group_rows;
  const int rows_here = min(tile_rows - first_row, group_rows);
  const int in_group = id - group * group_rows * tile_cols;
  const int row0 = (first_row + in_group % rows_here) * block_m;
  const int col0 = (in_group / rows_here) * block_n;
  if (g.lower && col0 > row0 + block_m - 1) return;  // block above the diagonal

  extern __shared__ __align__(128) double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int gid = lane / 4, tig = lane % 4;
  const int warp_row = (warp / (block_n / warp_n)) * warp_m;
  const int warp_col = (warp % (block_n / warp_n)) * warp_n;

  double acc[tiles_m][tiles_n][4];
#pragma unroll
  for (int i = 0; i < tiles_m; ++i)
#pragma unroll
    for (int j = 0; j < tiles_n; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0;

  auto slice_a = [&](int stage) { return shared + stage * 2 * slice_elems; };
  auto slice_b = [&](int stage) { return shared + stage * 2 * slice_elems + slice_elems; };
  auto load_stage = [&](int stage, int k0) {
    // op(A)(i, k): A rows contiguous when op(A) has unit column stride.
    load_slice<a_rows_contiguous, width>(slice_a(stage), g.a.data, g.a.row_stride, g.a.col_stride,
                                         row0, g.m, k0, g.k);
    // op(B)(k, j): for column j the k-run is contiguous when op(B) has unit row stride.
    load_slice<b_cols_contiguous, width>(slice_b(stage), g.b.data, g.b.col_stride, g.b.row_stride,
                                         col0, g.n, k0, g.k);
    cp_async_commit();
  };
  // Fragment element offsets within a slice: A(row, k) and B(k, col).
  auto a_at = [](int row, int k) {
    return a_rows_contiguous ? row * (block_k + pad) + k : k * (block_m + pad) + row;
  };
  auto b_at = [](int k, int col) {
    return b_cols_contiguous ? col * (block_k + pad) + k : k * (block_n + pad) + col;
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
    for (int kk = 0; kk < block_k; kk += mma_k) {
      double fb[tiles_n][4];
#pragma unroll
      for (int j = 0; j < tiles_n; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) fb[j][r] = bs[b_at(kk + tig + 4 * r, warp_col + j * mma_n + gid)];
#pragma unroll
      for (int i = 0; i < tiles_m; ++i) {
        double fa[8];
#pragma unroll
        for (int r = 0; r < 8; ++r)
          fa[r] = as[a_at(warp_row + i * mma_m + gid + 8 * (r % 2), kk + tig + 4 * (r / 2))];
#pragma unroll
        for (int j = 0; j < tiles_n; ++j) mma_16x8x16(acc[i][j], fa, fb[j]);
      }
    }
  }
  cp_async_wait<0>();

  // Epilogue straight from the accumulators: each thread owns pairs of adjacent columns.
#pragma unroll
  for (int i = 0; i < tiles_m; ++i)
#pragma unroll
    for (int j = 0; j < tiles_n; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int gi = row0 + warp_row + i * mma_m + gid + 8 * (r / 2);
        const int gj = col0 + warp_col + j * mma_n + 2 * tig + r % 2;
        if (gi < g.m && gj < g.n && !(g.lower && gj > gi)) {
          double& out = g.c[gi * g.ldc + gj];
          out = g.beta == 0.0 ? g.alpha * acc[i][j][r] : g.alpha * acc[i][j][r] + g.beta * out;
        }
      }
}

template <bool a_rows_contiguous, bool b_cols_contiguous, int width>
void launch(const GemmCall<double>& call) {
  auto kernel = gemm_dmma_kernel<a_rows_contiguous, b_cols_contiguous, width>;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes),
        "raising the shared memory of the DMMA GEMM kernel");
  const int blocks = ((call.m + block_m - 1) / block_m) * ((call.n + block_n - 1) / block_n);
  kernel<<<blocks, threads, shared_bytes>>>(call);
  check(cudaGetLastError(), "launch of the DMMA GEMM kernel");
}

// 16-byte copies need the operand 16-byte aligned, its other (non-unit) stride even, and an even
// extent along the contiguous direction (k when the k-run is contiguous, else the outer extent).
bool pairs_fit(const Operand<double>& x, bool contiguous_k, long long other_stride, int outer_end,
               int k_end) {
  return reinterpret_cast<std::uintptr_t>(x.data) % 16 == 0 && other_stride % 2 == 0 &&
         (contiguous_k ? k_end : outer_end) % 2 == 0;
}

template <int width>
void launch_layout(const GemmCall<double>& call, bool a_rows, bool b_cols) {
  if (a_rows && b_cols) launch<true, true, width>(call);
  else if (a_rows) launch<true, false, width>(call);
  else if (b_cols) launch<false, true, width>(call);
  else launch<false, false, width>(call);
}

}  // namespace

void gemm_dmma(const GemmCall<double>& call) {
  const bool a_rows = call.a.col_stride == 1;
  const bool b_cols = call.b.row_stride == 1 && call.b.col_stride != 1;
  // Pairs run along k when the k-run is contiguous, else along the outer index, which then
  // needs unit stride (A's rows, B's columns).
  const bool a_pairs = a_rows ? pairs_fit(call.a, true, call.a.row_stride, call.m, call.k)
                              : call.a.row_stride == 1 &&
                                    pairs_fit(call.a, false, call.a.col_stride, call.m, call.k);
  const bool b_pairs = b_cols ? pairs_fit(call.b, true, call.b.col_stride, call.n, call.k)
                              : call.b.col_stride == 1 &&
                                    pairs_fit(call.b, false, call.b.row_stride, call.n, call.k);
  if (a_pairs && b_pairs) launch_layout<2>(call, a_rows, b_cols);
  else launch_layout<1>(call, a_rows, b_cols);
}

}  // namespace fem::kernels::cuda

#pragma once
// The block column kernel's device code (block_column_cholesky.hpp), shared by its own launches
// (block_column_cholesky.cu) and the persistent band kernel (band_cholesky_persistent.cu).
// Each block of 256 threads holds, in shared memory, D (64 rows) and a strip of 32 rows under it. Every block applies the left
// columns' update to its rows and factors D itself, so no block waits for another; the last
// block to have read D writes it back.
//
// The left update goes through shared memory 64 columns at a time, the next chunk copied in
// (cp.async) while the current one is applied as 8 x 8 tiles, one warp a tile.
//
// D is factored 32 columns (a slab) at a time by the first three warps, a thread a row. The warp
// of the slab's diagonal block keeps it in registers (lane i holds its row i) and factors it
// column by column, publishing each column of L in shared memory; the warps of the rows under it
// apply the columns to their rows (also in registers) a group of 8 behind, meeting it at named
// barriers. The columns right of the slab are then updated in tiles, as the left update is.

#include <cuda_pipeline.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/mma_16x8x16.cuh"

namespace fem::kernels::cuda::block_column_device {

constexpr int width = block_column_width;
constexpr int slab = 32;                  // columns a warp factors in registers
constexpr int strip_rows = 32;            // rows under D a block solves
constexpr int rows = width + strip_rows;  // rows in shared memory: D's, then the strip's
constexpr int threads = 256;              // the factorisation takes a thread a row, the rest only
                                          // copy and update: more warps to hide their latencies
constexpr int warps = threads / 32;
constexpr int pitch = width + 1;       // odd: a column read by a warp, a thread a row, hits distinct banks
constexpr int left_pitch = width + 4;  // 4 mod 16 doubles: a tensor-core fragment (8 rows x 4) hits distinct banks
constexpr int tile = 8;                // the update's output tiles
constexpr unsigned all_lanes = 0xffffffffu;

static_assert(width % slab == 0 && width / slab == 2, "D is two slabs: the rows of warps 0 and 1");
static_assert(rows % 32 == 0 && threads % 32 == 0 && threads > rows && rows % tile == 0 && width % tile == 0,
              "whole warps and tiles, and a warp that does not factor");

// 1/√x for the pivot chain, x a normal positive number. In double, not the library's rsqrt: it
// branches to a slow path for special inputs, and a branch ends the basic block, so the
// compiler cannot fill its Newton steps' latency with the column's other work (the chain then
// waits for them, a column at a time). Here: the hardware's gross approximation (from x's high
// word, about 20 bits) and one third-order step, y (1 + e/2 + 3e²/8) with e = 1 - x y², whose
// error 5e³/16 is under an ulp; no branch. Subnormal x flushes to zero (the chain counts such a
// pivot as failed).
template <class T>
__device__ T reciprocal_sqrt(T x);
template <>
__device__ inline double reciprocal_sqrt<double>(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  const double e = fma(-(x * y), y, 1.0);
  return fma(y * e, fma(0.375, e, 0.5), y);
}
template <>
__device__ inline float reciprocal_sqrt<float>(float x) { return rsqrtf(x); }

// 1/x for the pivot chain, x a normal positive number: the hardware's gross approximation (about
// 20 bits) and one third-order step, y (1 + e + e²) with e = 1 - x y: three dependent
// multiply-adds where 1/√x takes four and a multiply.
template <class T>
__device__ T reciprocal(T x);
template <>
__device__ inline double reciprocal<double>(double x) {
  double y;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  const double e = fma(-x, y, 1.0);
  return fma(y, fma(e, e, e), y);
}
template <>
__device__ inline float reciprocal<float>(float x) { return __frcp_rn(x); }

// The smallest pivot the chain takes: the smallest normal number.
template <class T>
constexpr T smallest_pivot = std::numeric_limits<T>::min();

// out(r0 + i, col0 + j) -= sum over k in [k0, k0 + K) of a(r0 + i, k) a(col0 + j, k), i, j < 8:
// one 8 x 8 tile of an update A -= L Lᵀ, by one warp, each lane two entries (row lane / 4,
// columns 2 (lane % 4) + 0, 1). In double on the tensor cores (m8n8k4: a lane gives one entry of
// each factor a step), four independent sums so that the steps overlap; else on the FMA units.
template <int K, class T, int P>
__device__ void subtract_tile_product(T (*out)[pitch], const T (*a)[P], int r0, int col0, int k0) {
  static_assert(K % 16 == 0, "whole groups of four m8n8k4 steps");
  const int group = threadIdx.x % 32 / 4, in_group = threadIdx.x % 4;
  T c0 = 0, c1 = 0;
#if __CUDA_ARCH__ >= 800
  constexpr bool tensor_cores = std::is_same_v<T, double>;
#else
  constexpr bool tensor_cores = false;
#endif
  if constexpr (tensor_cores) {
    double sum0[4] = {0, 0, 0, 0}, sum1[4] = {0, 0, 0, 0};
#pragma unroll
    for (int k = k0; k < k0 + K; k += 16)
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        const double x = a[r0 + group][k + 4 * p + in_group], y = a[col0 + group][k + 4 * p + in_group];
        asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};"
            : "+d"(sum0[p]), "+d"(sum1[p])
            : "d"(x), "d"(y));
      }
    c0 = (sum0[0] + sum0[1]) + (sum0[2] + sum0[3]);
    c1 = (sum1[0] + sum1[1]) + (sum1[2] + sum1[3]);
  } else {
#pragma unroll 8
    for (int k = k0; k < k0 + K; ++k) {
      const T x = a[r0 + group][k];
      c0 += x * a[col0 + 2 * in_group][k];
      c1 += x * a[col0 + 2 * in_group + 1][k];
    }
  }
  T* o = &out[r0 + group][col0 + 2 * in_group];
  o[0] -= c0;
  o[1] -= c1;
}

#if __CUDA_ARCH__ >= 900
constexpr bool has_16x8x16_steps = true;
#else
constexpr bool has_16x8x16_steps = false;
#endif

using kernels::cuda::mma_16x8x16;  // kernels/cuda/mma_16x8x16.cuh

// In double on sm_90: A(r, c) -= sum over k < k_count of f(r, k) f(c, k) for the 16 rows from
// row0 and the 8 nt_count columns from col0, by one warp in 16 x 8 x 16 steps (the rows'
// fragments loaded once for the column tiles), f(row, k) being an entry of the left columns or
// of the first slab's. Entries that are not stored get the update too: their factors are zero,
// or nobody reads them.
template <int nt_count, int k_count, class F>
__device__ void subtract_block_product(double (*s)[pitch], const F& f, int row0, int col0) {
  static_assert(k_count % 32 == 0, "whole pairs of steps of 16");
  const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  double acc[2][nt_count][4] = {};  // the even and the odd steps of 16 apart: twice the products in flight
#pragma unroll
  for (int k = 0; k < k_count; k += 16) {
    double a[8];
#pragma unroll
    for (int q = 0; q < 8; ++q) a[q] = f(row0 + g + 8 * (q % 2), k + t + 4 * (q / 2));
#pragma unroll
    for (int nt = 0; nt < nt_count; ++nt) {
      double b[4];
#pragma unroll
      for (int q = 0; q < 4; ++q) b[q] = f(col0 + nt * 8 + g, k + t + 4 * q);
      mma_16x8x16(acc[k / 16 % 2][nt], a, b);
    }
  }
#pragma unroll
  for (int nt = 0; nt < nt_count; ++nt)
#pragma unroll
    for (int q = 0; q < 4; ++q)
      s[row0 + g + 8 * (q / 2)][col0 + nt * 8 + 2 * t + q % 2] -= acc[0][nt][q] + acc[1][nt][q];
}

// Columns [first, first + k_count) of the left columns l.
template <int nt_count, int k_count = width>
__device__ void subtract_left_block(double (*s)[pitch], const double (*l)[left_pitch], int row0, int col0,
                                    int first = 0) {
  subtract_block_product<nt_count, k_count>(s, [l, first](int row, int k) { return l[row][first + k]; }, row0, col0);
}

// The first slab's columns of the rows under it, as the row warps write them when the slab is
// factored, transposed: column k's entry of row slab + i at [k][i]. s has an odd pitch (a thread
// a row, a column read by a warp hits distinct banks), where the tensor-core fragments (8 rows x
// 4 columns a load) hit a bank 4 times (the product between the slabs took 1.3 us for 32
// products); here a fragment is 4 rows x 8 columns at a pitch of 4 mod 16 doubles: distinct banks.
constexpr int slab_columns_pitch = rows - slab + 4;
using SlabColumns = double[slab][slab_columns_pitch];
template <class T>  // in the dynamic shared memory after s (the product is in double only)
constexpr std::size_t slab_columns_bytes = std::is_same_v<T, double> ? sizeof(SlabColumns) : 0;

// After the first slab, in double on sm_90: its update of all the rows under it and D's columns
// right of it, a warp 16 x 16 entries (32 steps of 16 x 8 x 16 for the block, against 208 of
// 8 x 8 x 4 by tiles).
__device__ inline void subtract_first_slab_product(double (*s)[pitch], const SlabColumns& columns) {
  static_assert(rows - slab == 4 * 16 && width - slab == 2 * 16 && warps == 8, "a warp 16 x 16 entries");
  const int warp = threadIdx.x / 32;
  subtract_block_product<2, slab>(s, [&columns](int row, int k) { return columns[k][row - slab]; },
                                  slab + warp / 2 * 16, slab + warp % 2 * 16);
}

// The left update of D's first slab of columns and of the rows under it: 6 blocks of 16 x 32
// entries as 12 halves of 16 x 16, a warp a half (three for each multiprocessor quarter, whose
// tensor core each half waits for).
// Columns [first, first + k_count) of the left columns l.
template <int k_count>
__device__ void subtract_left_product_first_slab(double (*s)[pitch], const double (*l)[left_pitch], int first) {
  static_assert(rows == 6 * 16 && slab == 32 && warps == 8, "12 halves of 16 x 16 for 8 warps");
  for (int half = threadIdx.x / 32; half < 12; half += warps)
    subtract_left_block<2, k_count>(s, l, half / 2 * 16, half % 2 * 16, first);
}

// The left update of D's second slab of columns below its diagonal, which the first slab's
// factorisation does not read: 7 halves of 16 x 16 (rows 32-47 x columns 48-63 are above D's
// diagonal), in the order (32, 32), (48, 32), (48, 48), (64, 32), ... (80, 48).
constexpr int second_slab_halves = 7;
__device__ inline void subtract_left_half_second_slab(double (*s)[pitch], const double (*l)[left_pitch], int half) {
  static_assert(rows - slab == 4 * 16 && width - slab == 32, "4 row blocks of 16, 2 column halves");
  const int block = half == 0 ? 0 : half + 1;  // of the 8 (row block, column half) pairs, the second skipped
  subtract_left_block<2>(s, l, slab + block / 2 * 16, slab + block % 2 * 16);
}

// Calls f(first row, first column) of each 8 x 8 tile, one warp a tile, that an update of
// columns [first_column, w) changes in rows [first_row, rows): those in D's lower triangle and
// in the strip's stored rows.
template <class Stored, class F>
__device__ void for_each_update_tile(int first_row, int first_column, int w, const Stored& stored, const F& f) {
  const int row_tiles = (rows - first_row) / tile, column_tiles = (width - first_column) / tile;
  for (int t = threadIdx.x / 32; t < row_tiles * column_tiles; t += warps) {
    const int r0 = first_row + t / column_tiles * tile, c0 = first_column + t % column_tiles * tile;
    const bool in_d = r0 < width;
    if (c0 >= w || (in_d && (c0 > r0 || r0 >= w)) || (!in_d && !stored(r0))) continue;
    f(r0, c0);
  }
}

// The slab factorisation's hand-over: the producer writes column j below the diagonal (as the
// columns before left it, unscaled) and the pivot p_j = L(j, j)² on it to published[j], and arrives at
// barrier first_group_barrier + g once the columns of group g (published_group of them) are
// there; the consumers wait there for each group. A barrier a group, each used once a slab: a
// warp never arrives twice at one before it completes. (0 is __syncthreads'.)
constexpr int published_group = 8;
constexpr int first_group_barrier = 1;
static_assert(slab % published_group == 0 && first_group_barrier + slab / published_group <= 16, "16 named barriers");

__device__ inline void arrive(int barrier, int threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(barrier), "r"(threads) : "memory");
}
__device__ inline void wait_at(int barrier, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(barrier), "r"(threads) : "memory");
}

// The producer: the slab's diagonal block, lane i holding its row i in d (the columns before
// the slab applied; `pivot` is d(0, 0) as lane 0 has it), becomes L. `meeting` threads meet at
// the barriers; the first of its `width` columns (the slab's columns that D has) whose pivot is
// not positive or subnormal goes to `failed_column` (as k0 + it) unless one is there.
//
// Right-looking on the entries as the columns before left them, unscaled: column j takes
// d(c) -= d(j) a(c, j) / p_j from each row, a(c, j) being row c's entry j. The chain is
// 1 / p_j -> p_(j + 1) = D(j + 1, j + 1) - a(j + 1, j)² / p_j -> 1 / p_(j + 1), in every lane: a
// multiply-add, the reciprocal's approximation and three multiply-adds (with L(j + 1, j) and
// 1 / sqrt(p_j) on it, six and the approximation). The two entries it needs next, D(j + 2, j + 1)
// and D(j + 2, j + 2) with column j applied, come from lane j + 2 (one shuffle). Column j
// reaches the other lanes through published, unscaled, with p_j on its diagonal (31 - j shuffles,
// two a double, took the issue slots the chain waits for); a(j + 1, j), the entry that the next
// column needs first, does not: every lane has it from the shuffle before. Nothing on the chain
// waits for a store and a load of shared memory, nor for 1 / sqrt(p_j): a warp issues in order,
// and with 1 / L(j, j) in published (stored before the column's loads) each column waited for the
// square root's approximation and step, then for the store and the load (about 200 cycles a
// column). The producer scales column j into L a column later, the consumers take 1 / sqrt(p_j)
// themselves.
template <class T>
__device__ void factor_slab_diagonal_block(T (&d)[slab], T pivot, T (*published)[slab], int meeting, int width, int k0,
                                           int& failed_column) {
  const int lane = threadIdx.x % 32;
  T r = reciprocal(pivot);
  T below = __shfl_sync(all_lanes, d[0], 1), next_diagonal = __shfl_sync(all_lanes, d[1], 1);
  T unscaled = 0, scale = 0;  // column j - 1's entry of this lane and 1 / L(j - 1, j - 1)
#pragma unroll
  for (int j = 0; j < slab; ++j) {
    const T a = lane > j ? d[j] : T(0);
    published[j][lane] = lane == j ? pivot : a;
    if (j % published_group == published_group - 1) arrive(first_group_barrier + j / published_group, meeting);
    if (j > 0) d[j - 1] = unscaled * scale;  // L, a column after its 1 / sqrt was issued
    unscaled = lane == j ? pivot : a;
    scale = reciprocal_sqrt(pivot);
    if (j + 1 == slab) break;
    const T t = a * r, next_pivot = next_diagonal - below * below * r;
    d[j + 1] -= t * below;  // a(j + 1, j) = below
    if (j + 2 < slab) {  // from lane j + 2: its entries j + 1 and j + 2 with column j applied
      const T next_row_diagonal = d[j + 2] - t * a;
      below = __shfl_sync(all_lanes, d[j + 1], j + 2);
      next_diagonal = __shfl_sync(all_lanes, next_row_diagonal, j + 2);
    }
    __syncwarp();
    // Also right of the diagonal, where d holds nothing that is read: it costs less than a test.
#pragma unroll
    for (int c = j + 2; c < slab; ++c) d[c] -= t * published[j][c];  // a(c, j)
    pivot = next_pivot;
    r = reciprocal(pivot);
  }
  d[slab - 1] = unscaled * scale;
  // The first failed pivot from those published (lane j reads its own p_j), after the chain: a
  // test a column on it was four of its fifty-odd instructions (Nsight Compute: the warp issues
  // about one cycle in three, the rest waits for the latencies of the instructions before).
  const unsigned failed = __ballot_sync(all_lanes, lane < width && !(published[lane][lane] >= smallest_pivot<T>));
  if (lane == 0 && failed != 0 && failed_column < 0) failed_column = k0 + __ffs(static_cast<int>(failed)) - 1;
}

// A consumer: its row x under the slab (the columns before the slab applied) becomes its row of
// L, x L(slab)ᵀ = the row, a group of published columns at a time (L(c, j) = a(c, j) / L(j, j)).
template <class T>
__device__ void solve_slab_row(T (&x)[slab], const T (*published)[slab], int meeting) {
#pragma unroll
  for (int g = 0; g < slab / published_group; ++g) {
    wait_at(first_group_barrier + g, meeting);
#pragma unroll
    for (int j = g * published_group; j < (g + 1) * published_group; ++j) {
      const T inv = reciprocal_sqrt(published[j][j]);
      x[j] *= inv;
      const T y = x[j] * inv;
#pragma unroll
      for (int c = j + 1; c < slab; ++c) x[c] -= y * published[j][c];
    }
  }
}

__device__ inline std::int64_t global_time_ns() {
  std::int64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The work of one block of `threads` threads (strip `strip_index` of the `strips` strips that
// cover the rows under D; the caller's `arrivals` counter is 0 before the first of them reads D),
// in the dynamic shared memory `shared_bytes` (shared_size bytes, 16-byte aligned). Every thread
// of the block calls it. With `stamps` (10 entries), thread 0 writes there the global time when
// the first half of the block column just left of D has landed, when the left update the first slab needs is
// applied, when the first slab is factored, when the columns right of it are updated, and when D
// is factored and the strip solved; then its multiprocessor's clock (cycles) at the second and
// at the fifth of these (their ratio to the time: the clock rate); then the times when the first
// and the second slab's producers ended their chains (the rest of a slab: the consumers' last
// group and the work beside it), and when every piece of the left columns but the last was
// applied.
//
// The handoff with the blocks around it (NoHandoff: none). Every thread calls
// handoff.wait_left(back, halves) before the left columns of the block column `back` before D
// (the 64 columns 64 back to 64 (back - 1) left of D) are fetched, up to their half `halves`
// (1: the first 32 columns, 2: all), D's and the strip's copies under way: a caller whose left
// columns other blocks write waits there for them. With Handoff::waits, the halves of the block
// column just left of D are waited for after the piece before is applied. Once the first
// slab's columns of the strip's rows (and of D's, by the block that writes D) are stored, one
// thread calls handoff.first_slab_stored(): the caller can tell the blocks that read them.
// Before the last stores, one thread calls handoff.fetch_next() and, once its stores are done,
// handoff.fetched() with what it returned: a caller that takes its tasks from a queue fetches
// its next one there, the round trip beside the stores instead of between the tasks.
struct NoHandoff {
  static constexpr bool waits = false;
  __device__ void wait_left(int, int) const {}
  __device__ void first_slab_stored() const {}
  __device__ unsigned long long fetch_next() const { return 0; }
  __device__ void fetched(unsigned long long) const {}
};

template <class T, class Handoff = NoHandoff>
__device__ void factor_strip(const BlockColumn<T>& bc, long long strip_index, unsigned strips, int* info, int info_base,
                             unsigned* arrivals, unsigned char* shared_bytes, std::int64_t* stamps = nullptr,
                             const Handoff& handoff = {}) {
  T(*s)[pitch] = reinterpret_cast<T(*)[pitch]>(shared_bytes);
  constexpr bool tensor_steps = std::is_same_v<T, double> && has_16x8x16_steps;
  SlabColumns& slab_columns = *reinterpret_cast<SlabColumns*>(shared_bytes + sizeof(T) * rows * pitch);
  T(*left_tiles)[rows][left_pitch] =
      reinterpret_cast<T(*)[rows][left_pitch]>(shared_bytes + sizeof(T) * rows * pitch + slab_columns_bytes<T>);
  __shared__ __align__(16) T published[slab][slab];  // the slab's columns of L (factor_slab_diagonal_block)
  __shared__ bool writes_d;      // this block is the last to have read D
  __shared__ int failed_column;  // D's first column whose pivot failed, or -1
  const int w = bc.width, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const long long strip = w + strip_index * strip_rows;  // its first row
  const auto global_row = [&](int r) { return r < width ? static_cast<long long>(r) : strip + (r - width); };
  const auto stored = [&](int r) { return r < width ? r < w : strip + (r - width) < w + bc.below; };

  // D's lower triangle (rows of D past w: the identity, so that their pivots pass) and the strip,
  // a warp a row.
  for (int r = warp; r < rows; r += warps) {
    const T* from = bc.diagonal + global_row(r) * bc.ld;
    const int end = !stored(r) ? 0 : r < width ? min(r + 1, w) : w;  // columns held
    for (int c = lane; c < width; c += 32) {
      if (c < end)
        __pipeline_memcpy_async(&s[r][c], from + c, sizeof(T));
      else
        s[r][c] = T(r == c);
    }
  }
  // The left columns, 64 at a time (a chunk), into two buffers (one when a chunk is all); the
  // last chunk (the block column just left of D) in two halves of 32 columns: the pieces, in
  // order. Each is fetched when handoff.wait_left returns. Where other blocks write the left
  // columns (Handoff::waits: the persistent kernel), the last chunk's halves are waited for and
  // fetched only once the piece before is applied (the block column before publishes its first
  // half while it factors its second slab).
  const int chunks = (bc.left + width - 1) / width, buffers = chunks < 2 ? 1 : 2;
  const int pieces = chunks == 0 ? 0 : chunks + 1;
  struct Piece {
    int chunk, first, end;  // columns [first, end) of the chunk
  };
  const auto piece = [&](int p) {
    const int chunk = min(p, chunks - 1), half = p - chunk;
    return chunk + 1 < chunks ? Piece{chunk, 0, width} : Piece{chunk, half * slab, (half + 1) * slab};
  };
  const auto late = [&](int p) { return Handoff::waits && p > 0 && piece(p).chunk == chunks - 1; };
  const auto fetch = [&](int p) {
    const Piece q = piece(p);
    handoff.wait_left(chunks - q.chunk, q.end / slab);  // the block column `back` before D, halves
    T(*l)[left_pitch] = left_tiles[q.chunk % buffers];
    const int first_column = q.chunk * width - bc.left;  // relative to D's first, < 0
    const int end = min(q.end, -first_column);           // the piece's columns left of D
    for (int r = warp; r < rows; r += warps) {
      const long long row = global_row(r);
      const T* from = bc.diagonal + row * bc.ld + first_column;
      // Columns further than the bandwidth from the diagonal are zero.
      const long long begin = stored(r) ? max(0LL, row - bc.bandwidth - first_column) : width;
      for (int k = q.first + lane; k < q.end; k += 32) {
        if (k >= begin && k < end)
          __pipeline_memcpy_async(&l[r][k], from + k, sizeof(T));
        else
          l[r][k] = T(0);
      }
    }
  };
  if (pieces > 0) fetch(0);
  __pipeline_commit();
  if (pieces > 1 && !late(1)) fetch(1);
  __pipeline_commit();

  // A := A - L_left L_leftᵀ on the tiles that matter: D's lower triangle and the strip, w columns.
  // In double on sm_90 the last chunk's update of the second slab's columns is applied by the
  // warps that do not factor while the first slab is factored (the chunk's buffer is not
  // refilled).
  // In double on sm_90 the last piece (the second half of the block column just left of D) is
  // applied in the first slab, by rows (last).
  const T(*deferred)[left_pitch] = nullptr;
  const T(*last)[left_pitch] = nullptr;
  for (int p = 0; p < pieces; ++p) {
    if (late(p)) {
      fetch(p);
      __pipeline_commit();
      __pipeline_wait_prior(0);
    } else {
      __pipeline_wait_prior(1);  // this piece's copies (and D's and the strip's) have landed
    }
    __syncthreads();
    if (stamps && threadIdx.x == 0 && p + 2 == pieces) stamps[0] = global_time_ns();
    const Piece q = piece(p);
    const T(*l)[left_pitch] = left_tiles[q.chunk % buffers];
    const bool whole = q.end - q.first == width;
    if constexpr (tensor_steps) {
      if (p + 1 == pieces) {  // its columns [slab, width) of the last chunk
        last = deferred = l;
        break;
      }
      if (whole)
        subtract_left_product_first_slab<width>(s, l, q.first);
      else
        subtract_left_product_first_slab<slab>(s, l, q.first);
      if (q.chunk + 1 < chunks) {
        for (int half = warp - (warps - 4); half >= 0 && half < second_slab_halves; half += 4)
          subtract_left_half_second_slab(s, l, half);
      } else {
        deferred = l;
      }
    } else {
      for_each_update_tile(0, 0, w, stored, [&](int r0, int c0) {
        if (whole)
          subtract_tile_product<width>(s, l, r0, c0, q.first);
        else
          subtract_tile_product<slab>(s, l, r0, c0, q.first);
      });
    }
    __syncthreads();  // the buffer is free again
    if (stamps && threadIdx.x == 0 && p + 2 == pieces) stamps[9] = global_time_ns();
    if (p + 2 < pieces && !late(p + 2)) fetch(p + 2);
    __pipeline_commit();
  }
  if (threadIdx.x == 0) failed_column = -1;
  // By a thread that does not factor and has nothing on the path after it: the atomic's round
  // trip (about a microsecond) overlaps the factorisation instead of holding the first row warp,
  // and so the others, at its start.
  const auto arrive_at_d = [&] {
    unsigned before;  // release: D is read before the counter says so
    asm volatile("atom.release.gpu.global.add.u32 %0, [%1], 1;" : "=r"(before) : "l"(arrivals) : "memory");
    writes_d = before == strips - 1;
  };
  const auto left_applied = [&] {
    if (stamps && threadIdx.x == 0) {
      if (chunks == 0) stamps[0] = global_time_ns();
      stamps[1] = global_time_ns();
      stamps[5] = static_cast<std::int64_t>(clock64());
    }
  };
  if (!last) {
    __pipeline_wait_prior(0);
    __syncthreads();
    left_applied();
    if (threadIdx.x == rows) arrive_at_d();
  } else if constexpr (tensor_steps) {
    // The last piece's update of the first slab's columns, by rows: the diagonal block's three
    // halves of 16 x 16 (the fourth is above the diagonal) by warps 1 to 3, after which the
    // producer starts (warp 0, barrier producer_ready); the consumers' rows (8 halves) by warps 4
    // to 7, after which the consumers start (consumers_ready). The producer no longer waits for
    // the 12 halves' update (3 a quarter of the multiprocessor, 4 products each), only 1 a quarter.
    constexpr int producer_ready = first_group_barrier + slab / published_group + 1;
    constexpr int consumers_ready = producer_ready + 1;
    static_assert(rows == 96 && warps == 8 && consumers_ready < 16, "warps 0 to 2 factor, 3 to 7 help");
    if (warp >= 1 && warp <= 3) {
      subtract_left_block<2, slab>(s, last, warp == 1 ? 0 : 16, warp == 3 ? 16 : 0, slab);
      arrive(producer_ready, 4 * 32);
    } else if (warp >= 4) {
      for (int half = 2 * (warp - 4); half < 2 * (warp - 3); ++half)
        subtract_left_block<2, slab>(s, last, slab + half / 2 * 16, half % 2 * 16, slab);
      arrive(consumers_ready, 6 * 32);
      if (threadIdx.x == 4 * 32) arrive_at_d();
    }
    if (warp == 0) {
      wait_at(producer_ready, 4 * 32);
      left_applied();
    } else if (warp <= 2) {
      wait_at(consumers_ready, 6 * 32);
    }
  }

  // The factorisation, a slab at a time, by the row warps (the first rows / 32), a thread a row:
  // the warp whose rows are the slab's diagonal block factors it (the producer) and publishes its
  // columns of L; the warps of the rows under it (the consumers) apply them to their rows. The
  // others wait at the barrier (slab 2: the warp of the rows above it too). The producer finds
  // D's first column whose pivot is not positive (or subnormal) after its chain and leaves it in
  // failed_column.
  const int r = threadIdx.x;
  for (int k0 = 0; k0 < w; k0 += slab) {
    if (r < rows) {
      const bool produces = warp == k0 / slab, consumes = r >= k0 + slab;
      // The producer's lane i holds row k0 + i of the slab's diagonal block; a consumer its own
      // row. Each reads and writes only its rows of s.
      T a[slab];
#pragma unroll
      for (int c = 0; c < slab; ++c) a[c] = !produces || c <= lane ? s[r][k0 + c] : T(0);
      // The producer and the consumers meet at one named barrier (2 + g) for each group g of
      // published_group columns: the producer arrives without waiting, and the consumers catch up
      // a group at a time, so the producer's chain has the issue slots of its quarter of the
      // multiprocessor to itself (each row warp factoring the diagonal block itself besides its
      // rows did twice its multiply-adds, 220 cycles a column; a flag and a fence a column
      // between them cost more).
      const int meeting = rows - k0;  // threads of the producer and the consumers
      if (produces) {
        const T first_pivot = s[k0][k0];  // as the columns before it left it (lane 0's row)
        factor_slab_diagonal_block(a, first_pivot, published, meeting, w - k0, k0, failed_column);
        if (stamps && lane == 0) stamps[7 + k0 / slab] = global_time_ns();
#pragma unroll
        for (int c = 0; c < slab; ++c)
          if (c <= lane) s[r][k0 + c] = a[c];
      } else if (consumes) {
        solve_slab_row(a, published, meeting);
#pragma unroll
        for (int c = 0; c < slab; ++c) s[r][k0 + c] = a[c];
        if constexpr (tensor_steps)
          if (k0 == 0)
#pragma unroll
            for (int c = 0; c < slab; ++c) slab_columns[c][r - slab] = a[c];
      }
    } else if (k0 > 0) {
      // The first slab's columns are final: the warps that do not factor store them while the
      // second slab is factored, and tell the caller (a barrier of theirs, the one after the
      // groups').
      constexpr int storers = warps - rows / 32;
      static_assert(first_group_barrier + slab / published_group < 16, "a named barrier left");
      for (int r2 = warp - rows / 32; r2 < rows; r2 += storers) {
        if (!stored(r2) || (r2 < width && !writes_d)) continue;
        if (lane < w && (r2 >= width || lane <= r2)) bc.diagonal[global_row(r2) * bc.ld + lane] = s[r2][lane];
      }
      asm volatile("bar.sync %0, %1;" ::"n"(first_group_barrier + slab / published_group), "n"(storers * 32) : "memory");
      if (threadIdx.x == rows) handoff.first_slab_stored();
    } else if (k0 == 0 && deferred) {
      // By the warps that do not factor (3 to 7), two halves a quarter of the multiprocessor but
      // one on the producer's (warp 4 shares warp 0's): 16 x 8 x 16 products on a quarter's
      // tensor core took about 130 cycles each, so its share is the slab's length.
      static_assert(rows / 32 == 3 && warps == 8 && second_slab_halves == 7, "warp i on quarter i % 4");
      const int first = warp == 4 ? 0 : warp == 5 ? 1 : warp == 6 ? 3 : warp == 3 ? 5 : 6;
      const int count = warp == 5 || warp == 6 ? 2 : 1;
      if constexpr (tensor_steps)
        for (int half = first; half < first + count; ++half) subtract_left_half_second_slab(s, deferred, half);
    }
    __syncthreads();
    if (stamps && threadIdx.x == 0 && k0 == 0) stamps[2] = global_time_ns();

    // The columns right of the slab: A(r, c) -= L(r, slab) L(c, slab)ᵀ.
    if (k0 + slab < w) {
      if constexpr (tensor_steps)
        subtract_first_slab_product(s, slab_columns);
      else
        for_each_update_tile(k0 + slab, k0 + slab, w, stored,
                             [&](int r0, int c0) { subtract_tile_product<slab>(s, s, r0, c0, k0); });
      __syncthreads();
    }
    if (stamps && threadIdx.x == 0 && k0 == 0) stamps[3] = global_time_ns();
  }
  if (stamps && threadIdx.x == 0) {
    stamps[4] = global_time_ns();
    stamps[6] = static_cast<std::int64_t>(clock64());
  }

  // The rest: the second slab's columns (all of them where there is one slab).
  const bool fetches = threadIdx.x == threads - 1;
  const unsigned long long next = fetches ? handoff.fetch_next() : 0;
  for (int r2 = warp; r2 < rows; r2 += warps) {
    if (!stored(r2) || (r2 < width && !writes_d)) continue;
    T* to = bc.diagonal + global_row(r2) * bc.ld;
    for (int c = w > slab ? slab + lane : lane; c < w; c += 32)
      if (r2 >= width || c <= r2) to[c] = s[r2][c];
  }
  if (fetches) handoff.fetched(next);
  if (writes_d && threadIdx.x == 0) {
    *arrivals = 0;  // every block has arrived: ready for the next launch
    if (failed_column >= 0) atomicCAS(info, 0, info_base + failed_column + 1);
  }
}

template <class T>
constexpr std::size_t shared_size(int left_buffers) {
  return sizeof(T) * (rows * pitch + static_cast<std::size_t>(left_buffers) * rows * left_pitch) +
         slab_columns_bytes<T>;
}


}  // namespace fem::kernels::cuda::block_column_device

// The multifrontal method's own kernels on the device: the original entries scattered into the
// panels; the extend-add of a child's update matrix, one thread per entry of its lower triangle
// with the threads of a warp along a row (contiguous in the child and, mostly, in the front);
// the Cholesky factor and inverse of a diagonal block in shared memory; and the gathers and
// scatters of the substitution, one thread per entry.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/front_kernels.hpp"

#include <stdexcept>

namespace fem::kernels::cuda {

namespace {

constexpr int block_x = 32, block_y = 8, line_block = 256;

template <class T>
__global__ void scatter_add_kernel(T* target, const std::int64_t* position, const T* value, std::int64_t count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * line_block + threadIdx.x;
  if (i < count) atomicAdd(target + position[i], value[i]);
}

template <class T>
__global__ void extend_add_kernel(const T* child, int rc, const int* relative, int into_panel, T* panel, int k,
                                  T* update, int r) {
  const int y = blockIdx.x * block_x + threadIdx.x;
  const int x = blockIdx.y * block_y + threadIdx.y;
  if (x >= rc || y > x) return;
  const T v = child[static_cast<long long>(x) * rc + y];
  const long long row = relative[x], col = relative[y];
  if (y < into_panel)
    panel[row * k + col] += v;
  else
    update[(row - k) * r + (col - k)] += v;
}

// factor_diagonal_block: 512 threads, each holding a 4 x 8 tile of the block in registers, rows
// tr + 32 a (a < 4, tr = t % 32: a warp's lanes on consecutive rows) of columns 8 tc + c (c < 8,
// tc = t / 32: one column tile per warp, so that a warp whose columns are done skips a step). Both
// sweeps (UᵀU = A by rows top-down, then U X = I by rows bottom-up) pass one row per step through
// a double buffer in shared memory, with the reciprocal of the step's pivot (worked out by the
// thread that finished it a step before): one barrier a step, and a step is one FMA per entry
// without branches, which is what it is bound by (a first version that divided and branched per
// entry took some 1.4 µs a step, 360 µs a block). The entries off the upper triangle and past n
// take garbage and are never stored. cuSOLVER's POTRF spends about 1 µs a column on small blocks.
constexpr int diagonal_threads = 512, tile_rows = 4, tile_columns = 8;
static_assert(diagonal_threads * tile_rows * tile_columns == kDiagonalBlock * kDiagonalBlock, "tiles cover the block");
static_assert(diagonal_threads / 32 * tile_columns == kDiagonalBlock, "a warp's tile columns");

template <class T>
__global__ void __launch_bounds__(diagonal_threads)
    diagonal_block_kernel(T* a, int n, int lda, T* inverse, int* info, int first) {
  extern __shared__ unsigned char shared[];
  T* u = reinterpret_cast<T*>(shared);   // U, n x n column-major, for the inverse's sweep
  T* rows = u + n * n;                   // two rows of kDiagonalBlock
  T* pivots = rows + 2 * kDiagonalBlock;  // ... and beside each, its pivot (UᵀU) or 1 / U(p, p) (U X = I)
  const int tr = threadIdx.x % 32, j0 = threadIdx.x / 32 * tile_columns;
  const auto row_of = [&](int r) { return tr + 32 * r; };
  for (int e = threadIdx.x; e < 2 * kDiagonalBlock; e += diagonal_threads) rows[e] = T(0);
  __syncthreads();
  T v[tile_rows][tile_columns];
#pragma unroll
  for (int r = 0; r < tile_rows; ++r)
#pragma unroll
    for (int c = 0; c < tile_columns; ++c) {
      const int i = row_of(r), j = j0 + c;
      v[r][c] = i < n && j < n && i <= j ? a[i + static_cast<long long>(j) * lda] : T(0);
      if (i == 0 && j < n) rows[j] = v[r][c];
    }
  if (threadIdx.x == 0) pivots[0] = a[0];
  __syncthreads();
  // UᵀU = A: at step p, row p is divided by the pivot's root and the rows below take their update.
  for (int p = 0; p < n; ++p) {
    const T* pivot_row = rows + (p & 1) * kDiagonalBlock;
    T* next_row = rows + ((p + 1) & 1) * kDiagonalBlock;
    const T d2 = pivots[p & 1];
    if (!(d2 > T(0))) {  // the same for every thread: all leave
      if (threadIdx.x == 0 && *info == 0) *info = first + p + 1;
      return;
    }
    if (j0 + tile_columns > p) {  // this warp's columns are not all done
      const T over_d = rsqrt(d2), over_d2 = over_d * over_d;
      T pr[tile_columns], s[tile_rows];
#pragma unroll
      for (int c = 0; c < tile_columns; ++c) pr[c] = pivot_row[j0 + c];
#pragma unroll
      for (int r = 0; r < tile_rows; ++r) s[r] = row_of(r) > p ? pivot_row[row_of(r)] * over_d2 : T(0);
#pragma unroll
      for (int r = 0; r < tile_rows; ++r)
#pragma unroll
        for (int c = 0; c < tile_columns; ++c) v[r][c] -= s[r] * pr[c];
      if (tr == p % 32)  // row p: divided by the root
#pragma unroll
        for (int r = 0; r < tile_rows; ++r)
          if (row_of(r) == p)
#pragma unroll
            for (int c = 0; c < tile_columns; ++c) v[r][c] *= over_d;
      if (tr == (p + 1) % 32)  // row p + 1 is final: the next step's pivot row
#pragma unroll
        for (int r = 0; r < tile_rows; ++r)
          if (row_of(r) == p + 1)
#pragma unroll
            for (int c = 0; c < tile_columns; ++c) {
              next_row[j0 + c] = v[r][c];
              if (j0 + c == p + 1) pivots[(p + 1) & 1] = v[r][c];
            }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < tile_rows; ++r)
#pragma unroll
    for (int c = 0; c < tile_columns; ++c) {
      const int i = row_of(r), j = j0 + c;
      if (i < n && j < n) {
        u[i + j * n] = i <= j ? v[r][c] : T(0);
        if (i <= j) a[i + static_cast<long long>(j) * lda] = v[r][c];
      }
      v[r][c] = i == j && i < n ? T(1) : T(0);
    }
  __syncthreads();
  // U X = I: at step p, row p of X is final once multiplied by 1 / U(p, p); the rows above take it
  // in. Row p of X is zero left of p, so the rows above may take all its columns.
  for (int p = n - 1; p >= 0; --p) {
    T* row = rows + (p & 1) * kDiagonalBlock;
    if (tr == p % 32) {
      const T over_d = T(1) / u[p + p * n];
#pragma unroll
      for (int r = 0; r < tile_rows; ++r)
        if (row_of(r) == p)
#pragma unroll
          for (int c = 0; c < tile_columns; ++c) row[j0 + c] = v[r][c] *= over_d;
    }
    __syncthreads();
    if (tr < p && j0 + tile_columns > p) {  // rows above p, columns from p on
      T ui[tile_rows], rr[tile_columns];
#pragma unroll
      for (int r = 0; r < tile_rows; ++r) ui[r] = row_of(r) < p ? u[row_of(r) + p * n] : T(0);
#pragma unroll
      for (int c = 0; c < tile_columns; ++c) rr[c] = row[j0 + c];
#pragma unroll
      for (int r = 0; r < tile_rows; ++r)
#pragma unroll
        for (int c = 0; c < tile_columns; ++c) v[r][c] -= ui[r] * rr[c];
    }
  }
#pragma unroll
  for (int r = 0; r < tile_rows; ++r)
#pragma unroll
    for (int c = 0; c < tile_columns; ++c) {
      const int i = row_of(r), j = j0 + c;
      if (i < n && j < n) inverse[i + j * n] = i <= j ? v[r][c] : T(0);
    }
}

template <class T>
__global__ void gather_kernel(const T* from, const std::int64_t* position, std::int64_t count, T* to) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * line_block + threadIdx.x;
  if (i < count) to[i] = from[position[i]];
}

template <class T>
__global__ void gather_rows_kernel(const T* x, const int* rows, int n, T* t) {
  const int i = blockIdx.x * line_block + threadIdx.x;
  if (i < n) t[i] = x[rows[i]];
}

template <class T>
__global__ void scatter_subtract_kernel(T* x, const int* rows, const T* t, int n) {
  const int i = blockIdx.x * line_block + threadIdx.x;
  if (i < n) x[rows[i]] -= t[i];
}

unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>((n + line_block - 1) / line_block); }

}  // namespace

template <class T>
void scatter_add(T* target, const std::int64_t* position, const T* value, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return;
  scatter_add_kernel<<<blocks_for(count), line_block, 0, stream>>>(target, position, value, count);
  check(cudaGetLastError(), "scatter_add launch");
}

template <class T>
void extend_add(const T* child, int rc, const int* relative, int into_panel, T* panel, int k, T* update, int r,
                cudaStream_t stream) {
  if (rc == 0) return;
  const dim3 block(block_x, block_y);
  const dim3 grid((rc + block_x - 1) / block_x, (rc + block_y - 1) / block_y);
  extend_add_kernel<<<grid, block, 0, stream>>>(child, rc, relative, into_panel, panel, k, update, r);
  check(cudaGetLastError(), "extend_add launch");
}

template <class T>
void factor_diagonal_block(T* a, int n, int lda, T* inverse, int* info, int first, cudaStream_t stream) {
  if (n <= 0) return;
  if (n > kDiagonalBlock) throw std::invalid_argument("factor_diagonal_block: a block of more than 128 columns");
  // U, two rows and their pivots: 130 KB in double, above the 48 KB a kernel gets without asking.
  const int bytes = (n * n + 2 * kDiagonalBlock + 2) * static_cast<int>(sizeof(T));
  static const bool raised = [] {
    check(cudaFuncSetAttribute(diagonal_block_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (kDiagonalBlock * kDiagonalBlock + 2 * kDiagonalBlock + 2) * static_cast<int>(sizeof(T))),
          "raising the diagonal block kernel's shared memory");
    return true;
  }();
  (void)raised;
  diagonal_block_kernel<<<1, diagonal_threads, bytes, stream>>>(a, n, lda, inverse, info, first);
  check(cudaGetLastError(), "factor_diagonal_block launch");
}

template <class T>
void gather(const T* from, const std::int64_t* position, std::int64_t count, T* to, cudaStream_t stream) {
  if (count == 0) return;
  gather_kernel<<<blocks_for(count), line_block, 0, stream>>>(from, position, count, to);
  check(cudaGetLastError(), "gather launch");
}

template <class T>
void gather_rows(const T* x, const int* rows, int n, T* t, cudaStream_t stream) {
  if (n == 0) return;
  gather_rows_kernel<<<blocks_for(n), line_block, 0, stream>>>(x, rows, n, t);
  check(cudaGetLastError(), "gather_rows launch");
}

template <class T>
void scatter_subtract(T* x, const int* rows, const T* t, int n, cudaStream_t stream) {
  if (n == 0) return;
  scatter_subtract_kernel<<<blocks_for(n), line_block, 0, stream>>>(x, rows, t, n);
  check(cudaGetLastError(), "scatter_subtract launch");
}

template void scatter_add<double>(double*, const std::int64_t*, const double*, std::int64_t, cudaStream_t);
template void scatter_add<float>(float*, const std::int64_t*, const float*, std::int64_t, cudaStream_t);
template void extend_add<double>(const double*, int, const int*, int, double*, int, double*, int, cudaStream_t);
template void extend_add<float>(const float*, int, const int*, int, float*, int, float*, int, cudaStream_t);

template void factor_diagonal_block<double>(double*, int, int, double*, int*, int, cudaStream_t);
template void factor_diagonal_block<float>(float*, int, int, float*, int*, int, cudaStream_t);

template void gather<double>(const double*, const std::int64_t*, std::int64_t, double*, cudaStream_t);
template void gather<float>(const float*, const std::int64_t*, std::int64_t, float*, cudaStream_t);
template void gather_rows<double>(const double*, const int*, int, double*, cudaStream_t);
template void gather_rows<float>(const float*, const int*, int, float*, cudaStream_t);
template void scatter_subtract<double>(double*, const int*, const double*, int, cudaStream_t);
template void scatter_subtract<float>(float*, const int*, const float*, int, cudaStream_t);

}  // namespace fem::kernels::cuda

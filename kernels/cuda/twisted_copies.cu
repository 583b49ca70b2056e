// The twisted band Cholesky's element moves on the device (twisted_copies.hpp).
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/twisted_copies.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int tile = 32, tile_rows = 8;  // 32 x 8 threads move a 32 x 32 tile

// Block (x, y): target rows [32 x, 32 x + 32) and the 32 columns starting y tiles right of the
// row tile's leftmost stored slot (32 x - window). Loads go along the source's rows (its columns
// q = n - 1 - i are the target's rows), stores along the target's.
template <class T>
__global__ void reflect_kernel(const T* source, long long n, long long first, long long kd, long long window,
                               T* target) {
  __shared__ T buffer[tile][tile + 1];
  const long long rows = n - first, i0 = static_cast<long long>(blockIdx.x) * tile,
                  j0 = i0 - window + static_cast<long long>(blockIdx.y) * tile;
  for (int jj = threadIdx.y; jj < tile; jj += tile_rows) {
    const long long i = i0 + threadIdx.x, j = j0 + jj;
    const bool on_band = i < rows && j >= 0 && i - j >= 0 && i - j <= kd;
    // target (i, j) = source (n - 1 - j, n - 1 - i): consecutive threads, consecutive source columns
    buffer[jj][threadIdx.x] = on_band ? source[(n - 1 - j) * window + (n - 1 - i) + window] : T(0);
  }
  __syncthreads();
  for (int ii = threadIdx.y; ii < tile; ii += tile_rows) {
    const long long i = i0 + ii, j = j0 + threadIdx.x;
    if (i < rows && j >= i - window && j <= i) target[i * window + j + window] = buffer[threadIdx.x][ii];
  }
}

template <class T>
__global__ void triangle_to_dense_kernel(const T* triangle, long long triangle_ld, long long size, bool reflected,
                                         T* dense, long long dense_ld) {
  const long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j >= size) return;
  T v = T(0);
  if (!reflected && j <= i) v = triangle[i * triangle_ld + j];
  if (reflected && j >= i) v = triangle[(size - 1 - i) * triangle_ld + (size - 1 - j)];
  dense[i * dense_ld + j] = v;
}

template <class T>
__global__ void copy_lower_kernel(const T* from, long long from_ld, long long size, T* to, long long to_ld) {
  const long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x, i = blockIdx.y;
  if (j > i || j >= size) return;
  to[i * to_ld + j] = from ? from[i * from_ld + j] : T(i == j ? 1 : 0);
}

template <class T>
__global__ void reverse_rows_kernel(const T* from, long long from_ld, long long rows, long long cols, bool add, T* to,
                                    long long to_ld) {
  const long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= rows * cols) return;
  const long long i = e / cols, c = e % cols;
  const T v = from[(rows - 1 - i) * from_ld + c];
  to[i * to_ld + c] = add ? to[i * to_ld + c] + v : v;
}

constexpr int threads = 256;
unsigned blocks_for(long long count) { return static_cast<unsigned>((count + threads - 1) / threads); }

}  // namespace

template <class T>
void reflect_band(const BandLayout& from, const T* source, index_t first, const BandLayout& to, T* target) {
  if (to.n == 0) return;
  const dim3 grid(static_cast<unsigned>((to.n + tile - 1) / tile),
                  static_cast<unsigned>((to.window() + tile) / tile + 1));
  reflect_kernel<<<grid, dim3(tile, tile_rows)>>>(source, from.n, first, from.bandwidth, from.window(), target);
  check(cudaGetLastError(), "launch of the band reflection");
}

template <class T>
void triangle_to_dense(const T* triangle, index_t triangle_ld, index_t size, bool reflected, T* dense,
                       index_t dense_ld) {
  if (size == 0) return;
  triangle_to_dense_kernel<<<dim3(blocks_for(size), static_cast<unsigned>(size)), threads>>>(
      triangle, triangle_ld, size, reflected, dense, dense_ld);
  check(cudaGetLastError(), "launch of triangle_to_dense");
}

template <class T>
void copy_lower(const T* from, index_t from_ld, index_t size, T* to, index_t to_ld) {
  if (size == 0) return;
  copy_lower_kernel<<<dim3(blocks_for(size), static_cast<unsigned>(size)), threads>>>(from, from_ld, size, to, to_ld);
  check(cudaGetLastError(), "launch of copy_lower");
}

template <class T>
void reverse_rows(const T* from, index_t from_ld, index_t rows, index_t cols, bool add, T* to, index_t to_ld) {
  if (rows * cols == 0) return;
  reverse_rows_kernel<<<blocks_for(rows * cols), threads>>>(from, from_ld, rows, cols, add, to, to_ld);
  check(cudaGetLastError(), "launch of reverse_rows");
}

#define FEM_TWISTED_COPIES(T)                                                                            \
  template void reflect_band<T>(const BandLayout&, const T*, index_t, const BandLayout&, T*);            \
  template void triangle_to_dense<T>(const T*, index_t, index_t, bool, T*, index_t);                     \
  template void copy_lower<T>(const T*, index_t, index_t, T*, index_t);                                  \
  template void reverse_rows<T>(const T*, index_t, index_t, index_t, bool, T*, index_t);
FEM_TWISTED_COPIES(double)
FEM_TWISTED_COPIES(float)
#undef FEM_TWISTED_COPIES

}  // namespace fem::kernels::cuda

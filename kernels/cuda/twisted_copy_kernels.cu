// The twisted band Cholesky's element moves on the device (twisted_copy_kernels.hpp).
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/twisted_copy_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

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
  template void triangle_to_dense<T>(const T*, index_t, index_t, bool, T*, index_t);                     \
  template void copy_lower<T>(const T*, index_t, index_t, T*, index_t);                                  \
  template void reverse_rows<T>(const T*, index_t, index_t, index_t, bool, T*, index_t);
FEM_TWISTED_COPIES(double)
FEM_TWISTED_COPIES(float)
#undef FEM_TWISTED_COPIES

}  // namespace fem::kernels::cuda

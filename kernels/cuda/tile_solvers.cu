// Unblocked Cholesky and triangular solve of one diagonal tile (at most max_tile wide): the
// small serial steps of the blocked algorithms, run with the tile in shared memory.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int potrf_threads = 256;
constexpr int trsm_threads = 128;

// Right-looking Cholesky of the tile by one block; info := first non-positive pivot or -1.
template <class T>
__global__ void potrf_tile_kernel(T* a, long long lda, int n, int* info) {
  __shared__ T t[max_tile][max_tile + 1];
  __shared__ bool failed;
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    const int i = e / n, j = e % n;
    if (j <= i) t[i][j] = a[i * lda + j];
  }
  if (threadIdx.x == 0) {
    failed = false;
    *info = -1;
  }
  __syncthreads();
  for (int j = 0; j < n; ++j) {
    if (threadIdx.x == 0) {
      if (t[j][j] > T(0)) {
        t[j][j] = sqrt(t[j][j]);
      } else {
        failed = true;
        *info = j;
      }
    }
    __syncthreads();
    if (failed) return;
    for (int i = j + 1 + threadIdx.x; i < n; i += blockDim.x) t[i][j] /= t[j][j];
    __syncthreads();
    const int rest = n - j - 1;
    for (int e = threadIdx.x; e < rest * rest; e += blockDim.x) {
      const int i = j + 1 + e / rest, c = j + 1 + e % rest;
      if (c <= i) t[i][c] -= t[i][j] * t[c][j];
    }
    __syncthreads();
  }
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    const int i = e / n, j = e % n;
    if (j <= i) a[i * lda + j] = t[i][j];
  }
}

// One thread per right-hand side (column of B), the triangle in shared memory.
template <class T>
__global__ void trsm_tile_kernel(Operand<T> tri, bool lower, int n, T* b, long long brs,
                                 long long bcs, int m) {
  __shared__ T t[max_tile][max_tile + 1];
  for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
    const int i = e / n, k = e % n;
    t[i][k] = (lower ? k <= i : k >= i) ? tri.data[i * tri.row_stride + k * tri.col_stride] : T(0);
  }
  __syncthreads();
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  T* x = b + j * bcs;
  for (int step = 0; step < n; ++step) {
    const int i = lower ? step : n - 1 - step;
    T sum = x[i * brs];
    if (lower)
      for (int k = 0; k < i; ++k) sum -= t[i][k] * x[k * brs];
    else
      for (int k = i + 1; k < n; ++k) sum -= t[i][k] * x[k * brs];
    x[i * brs] = sum / t[i][i];
  }
}

}  // namespace

template <class T>
void potrf_tile(T* a, long long lda, int n, int* info) {
  potrf_tile_kernel<<<1, potrf_threads>>>(a, lda, n, info);
  check(cudaGetLastError(), "launch of the tile Cholesky kernel");
}

template <class T>
void trsm_tile(Operand<T> tri, bool lower, int n, T* b, long long b_row_stride,
               long long b_col_stride, int m) {
  trsm_tile_kernel<<<(m + trsm_threads - 1) / trsm_threads, trsm_threads>>>(
      tri, lower, n, b, b_row_stride, b_col_stride, m);
  check(cudaGetLastError(), "launch of the tile triangular-solve kernel");
}

template void potrf_tile<double>(double*, long long, int, int*);
template void potrf_tile<float>(float*, long long, int, int*);
template void trsm_tile<double>(Operand<double>, bool, int, double*, long long, long long, int);
template void trsm_tile<float>(Operand<float>, bool, int, float*, long long, long long, int);

}  // namespace fem::kernels::cuda

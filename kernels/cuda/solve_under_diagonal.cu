#include "kernels/cuda/solve_under_diagonal.hpp"

#include <stdexcept>
#include <string>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int width_max = block_column_width;
constexpr int threads = 128;

// Column j of L is lt[j] (L transposed, zero outside the triangle and past `width`), read by every
// thread at once (a broadcast); 1 / L(j, j) is inverse[j] (0 past `width`, so that the padding
// stays 0 and needs no test in the unrolled loop).
template <class T>
__global__ void __launch_bounds__(threads) solve_kernel(const T* l, T* b, long long rows, int width, long long ld) {
  __shared__ T lt[width_max][width_max];
  __shared__ T inverse[width_max];
  for (int e = threadIdx.x; e < width_max * width_max; e += threads) {
    const int i = e / width_max, j = e % width_max;  // L(i, j)
    lt[j][i] = j <= i && i < width ? l[i * ld + j] : T(0);
  }
  if (threadIdx.x < width_max) inverse[threadIdx.x] = threadIdx.x < width ? T(1) / l[threadIdx.x * (ld + 1)] : T(0);
  __syncthreads();
  const long long r = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
  if (r >= rows) return;
  T* row = b + r * ld;
  T x[width_max];
#pragma unroll
  for (int k = 0; k < width_max; ++k) x[k] = k < width ? row[k] : T(0);
  // Column by column: x_j = (b_j - sum over k < j of x_k L(j, k)) / L(j, j), the sum applied as
  // each x_k is known (independent multiply-adds; the chain is x_j alone).
#pragma unroll
  for (int j = 0; j < width_max; ++j) {
    x[j] *= inverse[j];
#pragma unroll
    for (int k = j + 1; k < width_max; ++k) x[k] -= x[j] * lt[j][k];
  }
#pragma unroll
  for (int k = 0; k < width_max; ++k)
    if (k < width) row[k] = x[k];
}

}  // namespace

template <class T>
void solve_under_diagonal(const T* l, T* b, long long rows, int width, long long ld, cudaStream_t stream) {
  if (width < 1 || width > width_max || rows < 0 || ld < width)
    throw std::invalid_argument("solve_under_diagonal: width " + std::to_string(width) + " (1 to " +
                                std::to_string(width_max) + "), " + std::to_string(rows) + " rows, leading dimension " +
                                std::to_string(ld));
  if (rows == 0) return;
  solve_kernel<T><<<static_cast<unsigned>((rows + threads - 1) / threads), threads, 0, stream>>>(l, b, rows, width, ld);
  check(cudaGetLastError(), "launch of the solve under a diagonal block");
}

template void solve_under_diagonal<double>(const double*, double*, long long, int, long long, cudaStream_t);
template void solve_under_diagonal<float>(const float*, float*, long long, int, long long, cudaStream_t);

}  // namespace fem::kernels::cuda

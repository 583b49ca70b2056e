#include "kernels/cuda/solve_under_diagonal.hpp"

#include <stdexcept>
#include <string>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int width_max = block_column_width;
constexpr int threads = 128;

template <class T>
__global__ void __launch_bounds__(threads) solve_kernel(const T* l, T* b, long long rows, int width, long long ld,
                                                        int solved) {
  // L transposed (lt[j] is column j of L, zero outside the triangle and past `width`), then the
  // rows X(0 : solved, :) in the same place.
  __shared__ T shared[width_max][width_max];
  __shared__ T inverse[width_max];  // 1 / L(j, j); 0 past `width`, so that the padding stays 0
  for (int e = threadIdx.x; e < width_max * width_max; e += threads) {
    const int i = e / width_max, j = e % width_max;  // L(i, j)
    shared[j][i] = j <= i && i < width ? l[i * ld + j] : T(0);
  }
  if (threadIdx.x < width_max) inverse[threadIdx.x] = threadIdx.x < width ? T(1) / l[threadIdx.x * (ld + 1)] : T(0);
  __syncthreads();
  const long long r = static_cast<long long>(blockIdx.x) * threads + threadIdx.x;
  T* row = b + r * ld;
  T x[width_max];
  if (r < rows) {
#pragma unroll
    for (int k = 0; k < width_max; ++k) x[k] = k < width ? row[k] : T(0);
  }
  if (r < rows && r >= solved) {
    // Column by column: x_j = (b_j - sum over k < j of x_k L(j, k)) / L(j, j), the sum applied
    // as each x_k is known (independent multiply-adds; the chain is x_j alone). L is read by
    // every thread at once (a broadcast).
#pragma unroll
    for (int j = 0; j < width_max; ++j) {
      x[j] *= inverse[j];
#pragma unroll
      for (int k = j + 1; k < width_max; ++k) x[k] -= x[j] * shared[j][k];
    }
#pragma unroll
    for (int k = 0; k < width_max; ++k)
      if (k < width) row[k] = x[k];
  }
  if (solved == 0) return;
  __syncthreads();  // L is no longer read
  for (int e = threadIdx.x; e < solved * width_max; e += threads) {
    const int i = e / width_max, k = e % width_max;
    shared[i][k] = k < width ? b[i * ld + k] : T(0);
  }
  __syncthreads();
  if (r >= rows) return;
  // C(r, c) -= X(r, :) X(c, :)ᵀ, on and below the diagonal of the next block.
  const int columns = r < solved ? static_cast<int>(r) + 1 : solved;
  for (int c = 0; c < columns; ++c) {
    T sum = 0;
#pragma unroll
    for (int k = 0; k < width_max; ++k) sum += x[k] * shared[c][k];
    row[width + c] -= sum;
  }
}

}  // namespace

template <class T>
void solve_under_diagonal(const T* l, T* b, long long rows, int width, long long ld, int solved, cudaStream_t stream) {
  if (width < 1 || width > width_max || rows < 0 || ld < width || solved < 0 || solved > width || solved > rows ||
      (solved > 0 && ld < width + solved))
    throw std::invalid_argument("solve_under_diagonal: width " + std::to_string(width) + " (1 to " +
                                std::to_string(width_max) + "), " + std::to_string(rows) + " rows, " +
                                std::to_string(solved) + " solved, leading dimension " + std::to_string(ld));
  if (rows == 0) return;
  solve_kernel<T><<<static_cast<unsigned>((rows + threads - 1) / threads), threads, 0, stream>>>(l, b, rows, width, ld,
                                                                                                 solved);
  check(cudaGetLastError(), "launch of the solve under a diagonal block");
}

template void solve_under_diagonal<double>(const double*, double*, long long, int, long long, int, cudaStream_t);
template void solve_under_diagonal<float>(const float*, float*, long long, int, long long, int, cudaStream_t);

}  // namespace fem::kernels::cuda

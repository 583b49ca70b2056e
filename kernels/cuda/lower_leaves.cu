#include "kernels/cuda/lower_leaves.hpp"

#include <algorithm>

#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

// blockIdx.y: the leaf; the block's threads walk its rows, a thread an entry of a row.
template <class T>
__global__ void subtract_lower_kernel(const T* squares, T* c, long long ld, int leaf, int count, int last_rows) {
  const int l = static_cast<int>(blockIdx.y);
  const int rows = l + 1 == count ? last_rows : leaf;
  const T* s = squares + static_cast<long long>(l) * leaf * leaf;
  T* d = c + static_cast<long long>(l) * leaf * (ld + 1);
  const long long entries = static_cast<long long>(rows) * leaf;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < entries;
       e += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long r = e / leaf, col = e % leaf;
    if (col <= r) d[r * ld + col] -= s[e];
  }
}

}  // namespace

template <class T>
void subtract_lower_leaves(const T* squares, T* c, long long ld, int leaf, int count, int last_rows, cudaStream_t stream) {
  if (count <= 0) return;
  constexpr int threads = 256;
  const long long per_leaf = static_cast<long long>(leaf) * leaf;
  const unsigned blocks = static_cast<unsigned>(std::min<long long>((per_leaf + threads - 1) / threads, 64));
  subtract_lower_kernel<T><<<dim3(blocks, static_cast<unsigned>(count)), threads, 0, stream>>>(squares, c, ld, leaf, count,
                                                                                              last_rows);
  check(cudaGetLastError(), "launch of the leaves' subtraction");
}

template void subtract_lower_leaves<double>(const double*, double*, long long, int, int, int, cudaStream_t);
template void subtract_lower_leaves<float>(const float*, float*, long long, int, int, int, cudaStream_t);

}  // namespace fem::kernels::cuda

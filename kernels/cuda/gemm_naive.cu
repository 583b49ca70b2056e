// One thread per element of C, every operand read from global memory: the paper's naive kernel.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int block_side = 16;

template <class T>
__global__ void gemm_naive_kernel(GemmCall<T> g) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= g.m || j >= g.n || (g.lower && j > i)) return;
  T sum = 0;
  for (int k = 0; k < g.k; ++k)
    sum += g.a.data[i * g.a.row_stride + k * g.a.col_stride] *
           g.b.data[k * g.b.row_stride + j * g.b.col_stride];
  T& c = g.c[i * g.ldc + j];
  c = g.beta == T(0) ? g.alpha * sum : g.alpha * sum + g.beta * c;
}

}  // namespace

template <class T>
void gemm_naive(const GemmCall<T>& call) {
  const dim3 block(block_side, block_side);
  const dim3 grid((call.n + block_side - 1) / block_side, (call.m + block_side - 1) / block_side);
  gemm_naive_kernel<<<grid, block>>>(call);
  check(cudaGetLastError(), "launch of the naive GEMM kernel");
}

template void gemm_naive<double>(const GemmCall<double>&);
template void gemm_naive<float>(const GemmCall<float>&);

}  // namespace fem::kernels::cuda

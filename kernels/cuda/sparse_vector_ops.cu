// Device vectors and the fused vector kernels of the CUDA Krylov solvers (declared in spmv_cuda.hpp).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/spmv_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 132 * 8;  // a few waves over the SMs; the loops stride over the rest

unsigned blocks_for(std::int64_t n) {
  const std::int64_t b = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(b < kMaxBlocks ? (b > 0 ? b : 1) : kMaxBlocks);
}

// Sums `value` over the block and adds it to *target with one atomic per block.
__device__ void block_add(double value, double* target) {
  __shared__ double warp_sums[kBlock / 32];
  for (int s = 16; s > 0; s /= 2) value += __shfl_down_sync(0xffffffffu, value, s);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x < 32) {
    value = threadIdx.x < kBlock / 32 ? warp_sums[threadIdx.x] : 0.0;
    for (int s = 16; s > 0; s /= 2) value += __shfl_down_sync(0xffffffffu, value, s);
    if (threadIdx.x == 0) atomicAdd(target, value);
  }
}

__global__ void dot_kernel(std::int64_t n, const double* x, const double* y, double* sums) {
  double s = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n; i += std::int64_t(gridDim.x) * kBlock)
    s += x[i] * y[i];
  block_add(s, sums);
}

// z_i = (M^-1 r)_i for the entries of one preconditioner block: r[0..B) are the block's residuals.
template <int B>
__device__ __forceinline__ double precondition(const double* m, std::int64_t block, int row, const double (&r)[B]) {
  if (!m) return r[row];
  double z = 0;
#pragma unroll
  for (int c = 0; c < B; ++c) z += m[B * B * block + B * row + c] * r[c];
  return z;
}

// One thread per preconditioner block of B entries (B = 1: Jacobi or none; 3: nodal blocks).
template <int B>
__global__ void cg_update_kernel(std::int64_t n, double alpha, const double* p, const double* q, double* u, double* r,
                                 const double* m, double* sums) {
  double rz = 0, rr = 0;
  for (std::int64_t b = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; b < n / B;
       b += std::int64_t(gridDim.x) * kBlock) {
    double rb[B];
#pragma unroll
    for (int k = 0; k < B; ++k) {
      const std::int64_t i = B * b + k;
      u[i] += alpha * p[i];
      rb[k] = r[i] - alpha * q[i];
      r[i] = rb[k];
      rr += rb[k] * rb[k];
    }
#pragma unroll
    for (int k = 0; k < B; ++k) rz += rb[k] * precondition<B>(m, b, k, rb);
  }
  block_add(rz, sums);
  block_add(rr, sums + 1);
}

template <int B>
__global__ void cg_direction_kernel(std::int64_t n, double beta, const double* r, const double* m, double* p) {
  for (std::int64_t b = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; b < n / B;
       b += std::int64_t(gridDim.x) * kBlock) {
    double rb[B];
#pragma unroll
    for (int k = 0; k < B; ++k) rb[k] = r[B * b + k];
#pragma unroll
    for (int k = 0; k < B; ++k) {
      const std::int64_t i = B * b + k;
      p[i] = precondition<B>(m, b, k, rb) + (beta != 0 ? beta * p[i] : 0.0);  // p may be unset when beta = 0
    }
  }
}

void check_block(std::int64_t n, const DevicePreconditioner& m) {
  if ((m.block != 1 && m.block != 3) || n % m.block != 0)
    throw std::invalid_argument("CG preconditioner: blocks of " + std::to_string(m.block) + " for " + std::to_string(n) +
                                " equations (1, or 3 for whole nodes)");
}

__global__ void axpby_kernel(std::int64_t n, double a, const double* x, double b, double* y) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * kBlock)
    y[i] = a * x[i] + (b != 0 ? b * y[i] : 0.0);  // y may be unset when b = 0
}

}  // namespace

void zero_sums(double* sums) { check(cudaMemsetAsync(sums, 0, 2 * sizeof(double)), "cudaMemsetAsync"); }
void read_sums(const double* sums, double out[2]) {
  check(cudaMemcpy(out, sums, 2 * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy (sums)");
}
void dot(std::int64_t n, const double* x, const double* y, double* sums) {
  dot_kernel<<<blocks_for(n), kBlock>>>(n, x, y, sums);
  check(cudaGetLastError(), "dot kernel");
}
void cg_update(std::int64_t n, double alpha, const double* p, const double* q, double* u, double* r,
               const DevicePreconditioner& m, double* sums) {
  check_block(n, m);
  if (m.block == 3)
    cg_update_kernel<3><<<blocks_for(n / 3), kBlock>>>(n, alpha, p, q, u, r, m.data, sums);
  else
    cg_update_kernel<1><<<blocks_for(n), kBlock>>>(n, alpha, p, q, u, r, m.data, sums);
  check(cudaGetLastError(), "cg_update kernel");
}
void cg_direction(std::int64_t n, double beta, const double* r, const DevicePreconditioner& m, double* p) {
  check_block(n, m);
  if (m.block == 3)
    cg_direction_kernel<3><<<blocks_for(n / 3), kBlock>>>(n, beta, r, m.data, p);
  else
    cg_direction_kernel<1><<<blocks_for(n), kBlock>>>(n, beta, r, m.data, p);
  check(cudaGetLastError(), "cg_direction kernel");
}
void axpby(std::int64_t n, double a, const double* x, double b, double* y) {
  axpby_kernel<<<blocks_for(n), kBlock>>>(n, a, x, b, y);
  check(cudaGetLastError(), "axpby kernel");
}

}  // namespace fem::kernels::cuda

// Device vectors and the fused vector kernels of the CUDA Krylov solvers (declared in spmv_cuda.hpp),
// and the block SpMV and smoothing step of AMG (declared in sparse_backend_kernels.hpp).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/sparse_backend_kernels.hpp"
#include "kernels/cuda/spmv_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 132 * 8;  // a few waves over the SMs; the loops stride over the rest

unsigned blocks_for(std::int64_t n) {
  const std::int64_t b = (n + kBlock - 1) / kBlock;
  return static_cast<unsigned>(b < kMaxBlocks ? (b > 0 ? b : 1) : kMaxBlocks);
}

// to = from rounded to float (to nearest, as a host cast rounds).
__global__ void narrow_kernel(std::int64_t n, const double* __restrict__ from, float* __restrict__ to) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    to[i] = __double2float_rn(from[i]);
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

__global__ void diagonal_step_kernel(std::int64_t n, double a, const double* s, const double* r, double b, double* d,
                                     double c, double* x) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * kBlock) {
    const double di = a * s[i] * r[i] + (b != 0 ? b * d[i] : 0.0);
    d[i] = di;
    x[i] = (c != 0 ? c * x[i] : 0.0) + di;
  }
}

// y = alpha A x + beta y over float or double blocks: T threads per block row stride over its
// blocks and meet by warp shuffles. R, C: the block shape at compile time (0: the run-time rows, cols).
template <class Value, int R, int C, int T>
__global__ void block_spmv_kernel(std::int64_t block_rows, int rows, int cols, const std::int64_t* __restrict__ row_ptr,
                                  const std::int32_t* __restrict__ col, const Value* __restrict__ val, double alpha,
                                  const double* __restrict__ x, double beta, double* __restrict__ y) {
  constexpr int kMaxRows = R > 0 ? R : 8;
  const int br = R > 0 ? R : rows, bc = C > 0 ? C : cols;
  const std::int64_t row = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) / T;
  const int lane = threadIdx.x % T;
  double s[kMaxRows] = {};
  if (row < block_rows) {
    const std::int64_t end = row_ptr[row + 1];
    for (std::int64_t k = row_ptr[row] + lane; k < end; k += T) {
      const Value* b = val + k * br * bc;
      const double* xc = x + std::int64_t(col[k]) * bc;
#pragma unroll
      for (int c = 0; c < (C > 0 ? C : 8); ++c) {
        if (C == 0 && c >= bc) break;
        const double xv = __ldg(xc + c);
#pragma unroll
        for (int r = 0; r < kMaxRows; ++r)
          if (R > 0 || r < br) s[r] += double(__ldg(b + r * bc + c)) * xv;
      }
    }
  }
  // Every lane of the warp takes part in the shuffles (rows past the end add zeros).
#pragma unroll
  for (int r = 0; r < kMaxRows; ++r)
#pragma unroll
    for (int offset = T / 2; offset > 0; offset /= 2) s[r] += __shfl_down_sync(0xffffffffu, s[r], offset, T);
  if (row < block_rows && lane == 0)
#pragma unroll
    for (int r = 0; r < kMaxRows; ++r)
      if (R > 0 || r < br) {
        double* yi = y + row * br + r;
        *yi = alpha * s[r] + (beta != 0 ? beta * *yi : 0.0);
      }
}

template <class Value, int R, int C>
void launch_block_spmv(const DeviceBlockMatrix& a, double alpha, const double* x, double beta, double* y) {
  const std::int64_t threads = a.block_rows * a.lanes;
  const auto blocks = static_cast<unsigned>((threads + kBlock - 1) / kBlock);
  const auto* val = static_cast<const Value*>(a.val);
  const auto run = [&](auto lanes) {
    block_spmv_kernel<Value, R, C, decltype(lanes)::value><<<blocks, kBlock>>>(
        a.block_rows, a.row_block, a.col_block, a.row_ptr, a.col, val, alpha, x, beta, y);
  };
  switch (a.lanes) {
    case 1: return run(std::integral_constant<int, 1>{});
    case 2: return run(std::integral_constant<int, 2>{});
    case 4: return run(std::integral_constant<int, 4>{});
    case 8: return run(std::integral_constant<int, 8>{});
    case 16: return run(std::integral_constant<int, 16>{});
    case 32: return run(std::integral_constant<int, 32>{});
  }
  throw std::invalid_argument("block_spmv: " + std::to_string(a.lanes) + " lanes per block row (1, 2, 4 .. 32)");
}

}  // namespace

DeviceBytes::DeviceBytes(const void* host, std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  check(cudaMalloc(&data_, bytes), "cudaMalloc (block matrix)");
  copy_bytes_to_device(data_, host, bytes);
}
DeviceBytes::DeviceBytes(std::size_t bytes) : bytes_(bytes) {
  if (bytes > 0) check(cudaMalloc(&data_, bytes), "cudaMalloc (block matrix)");
}
DeviceBytes::DeviceBytes(const DeviceBytes& device, bool narrow)
    : bytes_(narrow ? device.bytes_ / sizeof(double) * sizeof(float) : device.bytes_) {
  if (bytes_ == 0) return;
  check(cudaMalloc(&data_, bytes_), "cudaMalloc (block matrix)");
  if (!narrow) {
    check(cudaMemcpy(data_, device.data_, bytes_, cudaMemcpyDeviceToDevice), "cudaMemcpy (block matrix copy)");
    return;
  }
  const auto n = static_cast<std::int64_t>(device.bytes_ / sizeof(double));
  narrow_kernel<<<blocks_for(n), kBlock>>>(n, static_cast<const double*>(device.data_), static_cast<float*>(data_));
  check(cudaGetLastError(), "narrow_kernel");
}
DeviceBytes::~DeviceBytes() { cudaFree(data_); }

void block_spmv(const DeviceBlockMatrix& a, double alpha, const double* x, double beta, double* y) {
  if (a.block_rows == 0) return;
  const int r = a.row_block, c = a.col_block;
  if (r < 1 || r > 8 || c < 1 || c > 8)
    throw std::invalid_argument("block_spmv: " + std::to_string(r) + " x " + std::to_string(c) + " blocks (at most 8 x 8)");
  // The shapes of 3D and 2D elasticity and of heat on the first levels; any other at run time.
  // Double blocks are a Krylov method's fine operator: square nodal blocks.
  if (a.double_values) {
    if (r == 3 && c == 3) launch_block_spmv<double, 3, 3>(a, alpha, x, beta, y);
    else if (r == 2 && c == 2) launch_block_spmv<double, 2, 2>(a, alpha, x, beta, y);
    else if (r == 1 && c == 1) launch_block_spmv<double, 1, 1>(a, alpha, x, beta, y);
    else launch_block_spmv<double, 0, 0>(a, alpha, x, beta, y);
  }
  else if (r == 1 && c == 1) launch_block_spmv<float, 1, 1>(a, alpha, x, beta, y);
  else if (r == 3 && c == 3) launch_block_spmv<float, 3, 3>(a, alpha, x, beta, y);
  else if (r == 6 && c == 6) launch_block_spmv<float, 6, 6>(a, alpha, x, beta, y);
  else if (r == 3 && c == 6) launch_block_spmv<float, 3, 6>(a, alpha, x, beta, y);
  else if (r == 6 && c == 3) launch_block_spmv<float, 6, 3>(a, alpha, x, beta, y);
  else if (r == 2 && c == 2) launch_block_spmv<float, 2, 2>(a, alpha, x, beta, y);
  else if (r == 2 && c == 3) launch_block_spmv<float, 2, 3>(a, alpha, x, beta, y);
  else if (r == 3 && c == 2) launch_block_spmv<float, 3, 2>(a, alpha, x, beta, y);
  else launch_block_spmv<float, 0, 0>(a, alpha, x, beta, y);
  check(cudaGetLastError(), "block_spmv kernel");
}

void diagonal_step(std::int64_t n, double a, const double* s, const double* r, double b, double* d, double c,
                   double* x) {
  diagonal_step_kernel<<<blocks_for(n), kBlock>>>(n, a, s, r, b, d, c, x);
  check(cudaGetLastError(), "diagonal_step kernel");
}

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

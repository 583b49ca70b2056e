// Device vectors and the fused vector kernels of the CUDA Krylov solvers (declared in spmv_cuda.hpp).
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/cuda/spmv_cuda.hpp"

namespace fem::kernels::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int kMaxBlocks = 132 * 8;  // a few waves over the SMs; the loops stride over the rest

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
}

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

__global__ void cg_update_kernel(std::int64_t n, double alpha, const double* p, const double* q, double* u, double* r,
                                 const double* inv_diag, double* sums) {
  double rz = 0, rr = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * kBlock) {
    u[i] += alpha * p[i];
    const double ri = r[i] - alpha * q[i];
    r[i] = ri;
    rz += ri * (inv_diag ? inv_diag[i] * ri : ri);
    rr += ri * ri;
  }
  block_add(rz, sums);
  block_add(rr, sums + 1);
}

__global__ void cg_direction_kernel(std::int64_t n, double beta, const double* r, const double* inv_diag, double* p) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * kBlock)
    p[i] = (inv_diag ? inv_diag[i] * r[i] : r[i]) + (beta != 0 ? beta * p[i] : 0.0);  // p may be unset when beta = 0
}

__global__ void subtract_from_kernel(std::int64_t n, const double* x, double* y) {
  for (std::int64_t i = blockIdx.x * std::int64_t(kBlock) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * kBlock)
    y[i] = x[i] - y[i];
}

}  // namespace

DeviceVector::DeviceVector(std::size_t n) : size_(n) {
  if (n > 0) check(cudaMalloc(&data_, n * sizeof(double)), "cudaMalloc (vector)");
}
DeviceVector::~DeviceVector() { cudaFree(data_); }
DeviceVector::DeviceVector(DeviceVector&& o) noexcept : data_(o.data_), size_(o.size_) {
  o.data_ = nullptr, o.size_ = 0;
}
DeviceVector& DeviceVector::operator=(DeviceVector&& o) noexcept {
  std::swap(data_, o.data_);
  std::swap(size_, o.size_);
  return *this;
}
void DeviceVector::upload(const double* host) {
  check(cudaMemcpy(data_, host, size_ * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy (vector upload)");
}
void DeviceVector::download(double* host) const {
  check(cudaMemcpy(host, data_, size_ * sizeof(double), cudaMemcpyDeviceToHost), "cudaMemcpy (vector download)");
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
               const double* inv_diag, double* sums) {
  cg_update_kernel<<<blocks_for(n), kBlock>>>(n, alpha, p, q, u, r, inv_diag, sums);
  check(cudaGetLastError(), "cg_update kernel");
}
void cg_direction(std::int64_t n, double beta, const double* r, const double* inv_diag, double* p) {
  cg_direction_kernel<<<blocks_for(n), kBlock>>>(n, beta, r, inv_diag, p);
  check(cudaGetLastError(), "cg_direction kernel");
}
void subtract_from(std::int64_t n, const double* x, double* y) {
  subtract_from_kernel<<<blocks_for(n), kBlock>>>(n, x, y);
  check(cudaGetLastError(), "subtract kernel");
}

}  // namespace fem::kernels::cuda

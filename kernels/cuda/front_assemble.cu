// The frontal method's assembly step: gather the old front and the element batch into the new
// front (lower triangle), one thread per entry, threads of a warp along a row of the new front.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int block_x = 32, block_y = 8;

__global__ void front_assemble_kernel(const double* from, long long ld_from, const int* from_index,
                                      const double* batch, long long ld_batch,
                                      const int* batch_index, double* to, long long ld_to, int n) {
  const int j = blockIdx.x * block_x + threadIdx.x;
  const int i = blockIdx.y * block_y + threadIdx.y;
  if (i >= n || j > i) return;
  const int fi = from_index[i], fj = from_index[j], bi = batch_index[i], bj = batch_index[j];
  double v = 0;
  if (fi >= 0 && fj >= 0) v = from[max(fi, fj) * ld_from + min(fi, fj)];
  if (bi >= 0 && bj >= 0) v += batch[max(bi, bj) * ld_batch + min(bi, bj)];
  to[i * ld_to + j] = v;
}

}  // namespace

void front_assemble(const double* from, long long ld_from, const int* from_index,
                    const double* batch, long long ld_batch, const int* batch_index, double* to,
                    long long ld_to, int n) {
  const dim3 block(block_x, block_y);
  const dim3 grid((n + block_x - 1) / block_x, (n + block_y - 1) / block_y);
  front_assemble_kernel<<<grid, block>>>(from, ld_from, from_index, batch, ld_batch, batch_index,
                                         to, ld_to, n);
  check(cudaGetLastError(), "front_assemble launch");
}

}  // namespace fem::kernels::cuda

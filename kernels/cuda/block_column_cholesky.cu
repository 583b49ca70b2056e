// The block column kernel (block_column_cholesky.hpp): one block of block_column_device::threads
// threads a strip of rows under D (the device code: block_column_strip.cuh).

#include <stdexcept>
#include <string>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/block_column_strip.cuh"
#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

using namespace block_column_device;

template <class T>
__global__ void __launch_bounds__(threads, 1) block_column_kernel(BlockColumn<T> bc, int* info, int info_base,
                                                               unsigned* arrivals) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  factor_strip(bc, blockIdx.x, gridDim.x, info, info_base, arrivals, shared_bytes);
}

}  // namespace

BlockColumnScratch::BlockColumnScratch() : arrivals_(1) { arrivals_.zero(); }

template <class T>
void block_column_cholesky(const BlockColumn<T>& column, int* info, int info_base, const BlockColumnScratch& scratch,
                           cudaStream_t stream) {
  if (column.width < 1 || column.width > width || column.below < 0 || column.left < 0 || column.ld < column.width)
    throw std::invalid_argument("block_column_cholesky: width " + std::to_string(column.width) + " (1 to " +
                                std::to_string(width) + "), " + std::to_string(column.below) + " rows below, " +
                                std::to_string(column.left) + " columns left, leading dimension " +
                                std::to_string(column.ld));
  static const bool sized = [] {  // more than the 48 KB a block gets unasked
    check(cudaFuncSetAttribute(block_column_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(shared_size<T>(2))),
          "cudaFuncSetAttribute (block column kernel)");
    return true;
  }();
  (void)sized;
  const int left_buffers = column.left == 0 ? 0 : column.left <= width ? 1 : 2;
  const long long blocks = column.below > 0 ? (column.below + strip_rows - 1) / strip_rows : 1;
  block_column_kernel<T><<<static_cast<unsigned>(blocks), threads, shared_size<T>(left_buffers), stream>>>(
      column, info, info_base, scratch.arrivals());
  check(cudaGetLastError(), "launch of the block column kernel");
}

template void block_column_cholesky<double>(const BlockColumn<double>&, int*, int, const BlockColumnScratch&,
                                            cudaStream_t);
template void block_column_cholesky<float>(const BlockColumn<float>&, int*, int, const BlockColumnScratch&,
                                           cudaStream_t);

}  // namespace fem::kernels::cuda

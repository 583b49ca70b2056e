#pragma once
// The CUDA back-end's LevelTransfer (kernels/level_transfer.hpp).
#include <memory>

#include "kernels/block_matrix.hpp"
#include "kernels/cuda/cuda_block_matrix.hpp"
#include "kernels/level_transfer.hpp"

namespace fem::kernels::cuda {

// Null where the shapes or A's rows do not fit the kernels (smoothed_transfer_cuda.hpp).
std::unique_ptr<LevelTransfer> make_level_transfer(const CudaBlockMatrix& a, const BlockMatrix<double>& t);

}  // namespace fem::kernels::cuda

#pragma once
// What AMG's setup reads of a level's values, made on a CUDA device where the assembly left them
// (level_values.cu; SparseBackend::level_values): the host then never holds the fine operator's
// values. Plain C++: the CUDA calls are in the .cu file.
#include <cstdint>

#include "kernels/cuda/sparse_backend_kernels.hpp"

namespace fem::kernels::cuda {

// For `a`, square blocks in double, into host arrays: `diagonal` (one per equation) its diagonal
// entries; `decoupled` 1 where the equation's row has no nonzero but its diagonal entry;
// `strength` (one per block) ||A_ij|| rounded to single where block k is off the diagonal and
// ||A_ij||^2 >= threshold^2 ||A_ii|| ||A_jj|| > 0 (Frobenius norms, rounded as the host rounds
// them), -1 where it is not.
void level_values(const DeviceBlockMatrix& a, double threshold, double* diagonal, char* decoupled, float* strength);

}  // namespace fem::kernels::cuda

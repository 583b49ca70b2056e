#pragma once
// What AMG's setup reads of a level's values, made on a CUDA device where the assembly left them
// (level_values.cu; SparseBackend::level_values): the host then never holds the fine operator's
// values. Plain C++: the CUDA calls are in the .cu file.
#include <cstdint>

#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/sparse_backend_kernels.hpp"

namespace fem::kernels::cuda {

// For `a`, square blocks in double: into host arrays `diagonal` (one per equation) its diagonal
// entries and `decoupled` 1 where the equation's row has no nonzero but its diagonal entry; into
// `strong` on the device (a word per 32 blocks, allocated here) bit k % 32 of word k / 32 set
// where block k is off the diagonal and ||A_ij||^2 >= threshold^2 ||A_ii|| ||A_jj|| > 0
// (Frobenius norms, rounded as the host rounds them).
void level_values(const DeviceBlockMatrix& a, double threshold, double* diagonal, char* decoupled,
                  DeviceBuffer<std::uint32_t>& strong);

// The aggregation's step (2) on the device (LevelValues::join_leftovers), all arrays there: for
// each node i with of[i] < 0, joined[i] = of[j] of its strong neighbour j (by `strong`) with
// of[j] >= 0 and the largest ||A_ij|| rounded to single, the first of equal ones in the row; -1
// where there is none; joined[i] = of[i] elsewhere.
void join_leftovers(const DeviceBlockMatrix& a, const std::uint32_t* strong, const std::int32_t* of, std::int32_t* joined);

}  // namespace fem::kernels::cuda

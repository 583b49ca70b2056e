#pragma once
// AMG's strength of connection on a CUDA device (strength_of_connection.cu): which blocks of a
// level's double block matrix there are strong connections, tested as the host's aggregation
// tests them. Plain C++: the CUDA calls are in the .cu file.
#include <cstdint>

#include "kernels/cuda/sparse_backend_kernels.hpp"

namespace fem::kernels::cuda {

// strong[k] = 1 where block k of `a` (square blocks, double) is off the diagonal and
// ||A_ij||^2 >= threshold^2 ||A_ii|| ||A_jj|| > 0 (Frobenius norms), else 0; `strong` is a host
// array of a's blocks.
void strong_blocks(const DeviceBlockMatrix& a, double threshold, std::uint8_t* strong);

}  // namespace fem::kernels::cuda

#pragma once
// The sparse back-end on a CUDA device: the matrix in the SpMV format the tuner picks (or one
// named), device vectors, and the fused vector kernels of CG (sparse_vector_ops.cu).
#include <memory>

#include "kernels/sparse_backend.hpp"

namespace fem::kernels::cuda {

// Throws BackendUnavailable when there is no usable device.
std::unique_ptr<SparseBackend> make_cuda_sparse_backend();

}  // namespace fem::kernels::cuda

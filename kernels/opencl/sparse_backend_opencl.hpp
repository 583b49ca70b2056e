#pragma once
// The sparse back-end on an OpenCL device: the tunable CSR kernel (or ELL/SELL when named), the
// vector kernels of CG (sparse_vector.cl). Block-diagonal preconditioners of blocks 0 and 1.
#include <memory>

#include "kernels/sparse_backend.hpp"

namespace fem::kernels::opencl {

// Throws BackendUnavailable when there is no OpenCL device.
std::unique_ptr<SparseBackend> make_opencl_sparse_backend();

}  // namespace fem::kernels::opencl

#pragma once
// Preconditioned CG with the whole iteration on a CUDA device: the matrix (in the format the
// tuner or `SolverOptions::spmv` picks), the vectors, the reductions and fused vector updates
// stay on the device; only the dot products' scalars cross the bus.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none, jacobi or block-jacobi (3x3 nodes). options.spmv: "auto" (tuned on the matrix within 1 s) or a
// setting such as "bcsr/t8" or "csr-vector/t16/b256" (kernels/cuda/spmv_cuda.hpp). Throws
// SolverUnavailable without a CUDA device or build, SolveFailure like the CPU CG.
std::unique_ptr<LinearSolver> make_cuda_conjugate_gradient(const SolverOptions& options);

}  // namespace fem

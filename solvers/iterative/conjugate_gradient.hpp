#pragma once
// Preconditioned conjugate gradient on the CPU (OpenMP): the reference the GPU Krylov solvers
// are checked against.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none, jacobi, block-jacobi (3x3 nodal), ssor, amg (smoothed aggregation,
// options.amg; report.figures gets its levels and complexities). Throws SolveFailure when it does
// not converge within max_iterations (default: 10 n, at least 1000) or meets a direction of
// non-positive curvature; SolverUnavailable for an unknown preconditioner.
std::unique_ptr<LinearSolver> make_cpu_conjugate_gradient(const SolverOptions& options);

}  // namespace fem

#pragma once
// Preconditioned conjugate gradient on any sparse back-end (cpu, cuda, opencl: options.device).
// The cpu run is the reference the devices are checked against.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none, jacobi, block-jacobi (3x3 nodal), ssor and amg (smoothed aggregation)
// on the cpu; a device takes the block-diagonal ones it has. Throws SolveFailure when it does not converge within
// max_iterations (default: 10 n, at least 1000) or meets a direction of non-positive curvature;
// SolverUnavailable for a preconditioner or device it cannot use.
std::unique_ptr<LinearSolver> make_conjugate_gradient(const SolverOptions& options);

}  // namespace fem

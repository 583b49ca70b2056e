#pragma once
// BiCGSTAB (van der Vorst), right-preconditioned, for non-symmetric systems, on any sparse
// back-end (cpu, cuda, opencl: options.device).
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none, jacobi or amg (the others assume symmetry). Throws SolveFailure on breakdown
// (rho or omega vanishing) or when it does not converge within max_iterations.
std::unique_ptr<LinearSolver> make_bicgstab(const SolverOptions& options);

}  // namespace fem

#pragma once
// BiCGSTAB (van der Vorst) on the CPU, right-preconditioned, for non-symmetric systems.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none, jacobi or amg (the others assume symmetry). Throws SolveFailure on breakdown
// (rho or omega vanishing) or when it does not converge within max_iterations.
std::unique_ptr<LinearSolver> make_cpu_bicgstab(const SolverOptions& options);

}  // namespace fem

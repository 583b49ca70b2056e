#pragma once
// The multifrontal sparse Cholesky solver (method `multifrontal`): nested dissection of the node
// graph (METIS), symbolic analysis with supernodes, fronts eliminated by OpenBLAS under a tree of
// OpenMP tasks, supernodal substitution. Under precision `mixed` it factors in FP32 and refines
// in FP64, falling back to an FP64 factor when that does not converge.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// The registry's entry multifrontal:cpu.
std::unique_ptr<LinearSolver> make_multifrontal_cpu(const SolverOptions& options);

}  // namespace fem

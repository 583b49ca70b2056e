#pragma once
// The PETSc solvers in one process, as ordinary rows of the registry: they copy fem's CSR matrix
// into a PETSc matrix (block size = dofs per node) and solve it with PETSc.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// `petsc`: KSP/PC from options.petsc_options over the default CG + GAMG with the rigid-body
// near-null space (constants for heat) built from AssembledSystem::nodes; rtol = options.tolerance.
// Throws SolveFailure naming PETSc's reason.
std::unique_ptr<LinearSolver> make_petsc_cpu(const SolverOptions& options);

// `mumps`: PETSc's MUMPS Cholesky (direct); options.petsc_options can tune it (-mat_mumps_icntl_...).
std::unique_ptr<LinearSolver> make_mumps_cpu(const SolverOptions& options);

}  // namespace fem

#pragma once
// The part of the PETSc solvers that does not care where the matrix came from: one process
// (a copy of fem's CSR matrix) or many (assembled in parallel). Given a PETSc matrix it attaches
// the near-null space, configures KSP/PC from the defaults and the user's options, solves and
// reports.
#include <petscksp.h>

#include <span>

#include "solvers/linear_solver.hpp"

namespace fem::petsc {

enum class Method {
  Krylov,  // `petsc`: CG + GAMG unless solver.petsc_options says otherwise
  Mumps,   // `mumps`: MUMPS Cholesky, direct
};

// Sets the near-null space AMG coarsens with: the rigid-body modes of elasticity (3 in 2D, 6 in
// 3D) from the coordinates of this process's nodes (3 numbers per node, in equation order), or
// the constants for one unknown per node (heat). Does nothing without coordinates.
void attach_near_null_space(Mat a, int dofs_per_node, int dimension, std::span<const double> local_coordinates);

// Solves a x = b; x holds the start value. KSP/PC: the method's defaults, then
// options.petsc_options (PETSc options-database syntax) over them; rtol = options.tolerance on
// the unpreconditioned residual for CG. Reports iterations, the relative residual, setup
// (KSPSetUp, i.e. PCSetUp) and solve (KSPSolve) times, and figures pc_setup_s, ksp_solve_s,
// converged_reason (PETSc's KSPConvergedReason), factor_bytes and flops for MUMPS; memory_bytes
// is the growth of resident memory from the start to the end of the solve. Throws
// SolveFailure naming PETSc's reason and the iteration when KSP diverges.
SolveReport solve_with_ksp(Mat a, Vec b, Vec x, Method method, const SolverOptions& options);

// solve_with_ksp from x = 0, and `residual` the true relative residual ||b - a x|| / ||b|| (0 for
// b = 0), recomputed as the one-process path does rather than taken from KSP.
SolveReport solve_from_zero(Mat a, Vec b, Vec x, Method method, const SolverOptions& options, double& residual);

// MUMPS's own account of the factor behind `ksp`'s PC, where MUMPS factorised: entries
// (INFOG(29), negative when in millions) as factor_bytes, the flops of the elimination
// (RINFOG(3)) and the fill-reducing ordering it chose (INFOG(7): mumps_ordering).
void add_factor_figures(KSP ksp, SolveReport& report);

// PETSc's name of a KSPConvergedReason ("CONVERGED_RTOL", "DIVERGED_ITS", ...).
std::string converged_reason_name(int reason);

}  // namespace fem::petsc

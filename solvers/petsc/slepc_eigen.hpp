#pragma once
// SLEPc's Krylov-Schur on K x = lambda M x (generalized symmetric), with shift-invert by MUMPS's
// Cholesky of K - sigma M through SLEPc's ST/KSP/PC: the field's reference eigen solver, beside
// our shift-invert Lanczos and LOBPCG, on a copy of fem's CSR matrices. Under mpirun every process
// passes the same whole K and M and PETSC_COMM_WORLD shares the rows out: the factorisation and
// the iterations run on every process, and every process gets the whole answer.
#include "solvers/eigen/eigen_problem.hpp"

namespace fem::petsc {

// The options.modes eigenpairs nearest options.shift (default_shift when none is given), which
// lies below the spectrum, so the lowest ones. Equations without mass (fixed ones) are left out,
// as the other eigen solvers do, and come back as zeros in the vectors; the vectors are
// M-normalised. Converged to options.tolerance in SLEPc's relative test on the shift-inverted
// problem, within options.max_restarts restarts. `restarts` in the result counts SLEPc's
// iterations and `solves` its applications of (K - sigma M)^-1. Throws EigenFailure when it
// does not converge, SolveFailure with PETSc's message when MUMPS cannot factorise K - sigma M.
// Collective over PETSC_COMM_WORLD.
eigen::EigenResult slepc_krylov_schur(const CsrMatrix& k, const CsrMatrix& m, const eigen::EigenOptions& options);

// "3.18.2": the SLEPc this build solves with, for reports.
std::string slepc_version();

}  // namespace fem::petsc

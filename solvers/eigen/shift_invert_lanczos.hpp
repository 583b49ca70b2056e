#pragma once
// Block Lanczos on the shift-invert operator OP = (K - sigma M)^-1 M, whose eigenvalues
// theta = 1 / (lambda - sigma) are largest for the lambda nearest the shift: the basis is
// M-orthonormal with full reorthogonalisation, the projected matrix V^T M OP V is formed
// explicitly, and a thick restart (Krylov-Schur) keeps the best Ritz vectors so that memory stays
// at `subspace` vectors, and M times them kept beside, however many restarts it takes. Blocks
// find repeated eigenvalues (the rigid-body modes, symmetric parts) that a single vector could
// not. K - sigma M is prepared once through LinearSolver::prepare and solved for a block of
// right-hand sides per step.
#include "solvers/eigen/eigen_problem.hpp"

namespace fem::eigen {

// Throws EigenFailure saying why when it cannot answer (see EigenFailure).
EigenResult shift_invert_lanczos(const CsrMatrix& k, const CsrMatrix& m, LinearSolver& solver, NodeLayout nodes,
                                 const EigenOptions& options);

}  // namespace fem::eigen

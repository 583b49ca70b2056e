#pragma once
// LOBPCG (Knyazev's locally optimal block preconditioned conjugate gradient) for the lowest
// eigenpairs of K x = lambda M x, preconditioned by one AMG V-cycle on K - sigma M (sigma: the
// shift, default_shift when none is asked for, which keeps a free body's K - sigma M positive
// definite). No factorisation: each step applies K, M and the V-cycle to a block and solves a
// small dense Rayleigh-Ritz problem on [X, W, P], M-orthonormalised by SVQB (columns that became
// dependent are dropped). Massless (fixed) equations stay zero, as in shift-invert Lanczos.
#include "solvers/eigen/eigen_problem.hpp"

namespace fem::eigen {

// A pair has converged when its mode_residuals measure is below options.tolerance, or below what
// roundoff in K x allows. `restarts` in the result counts the
// iterations and `solves` the V-cycles. Throws EigenFailure without convergence in
// options.max_restarts iterations.
EigenResult lobpcg(const CsrMatrix& k, const CsrMatrix& m, NodeLayout nodes, const AmgOptions& amg,
                   const EigenOptions& options);

}  // namespace fem::eigen

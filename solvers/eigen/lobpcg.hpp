#pragma once
// LOBPCG (Knyazev's locally optimal block preconditioned conjugate gradient) for the lowest
// eigenpairs of K x = lambda M x, preconditioned by one AMG V-cycle on K - sigma M (sigma: the
// shift, default_shift when none is asked for, which keeps a free body's K - sigma M positive
// definite). No factorisation: each step applies K, M and the V-cycle to a block and solves a
// small dense Rayleigh-Ritz problem on [X, W, P], M-orthonormalised by SVQB (columns that became
// dependent are dropped). Massless (fixed) equations stay zero, as in shift-invert Lanczos.
// Written once against the kernels' back-ends, it runs on options.device (cpu, cuda): the blocks
// X, W, P and their products with K and M live there, the Gram matrices and combinations are
// GEMMs there (host BLAS, cuBLAS), the V-cycle runs there; only the small Rayleigh-Ritz problem
// is solved on the host. K S and M S follow S by the same combinations (only W's are multiplied
// out), and converged pairs get no new directions (soft locking).
#include "solvers/eigen/eigen_problem.hpp"

namespace fem::eigen {

// A pair has converged when its mode_residuals measure is below options.tolerance, or below what
// roundoff in K x allows (confirmed on K x and M x multiplied afresh). `restarts` in the result
// counts the iterations and `solves` the V-cycles. Throws EigenFailure without convergence in
// options.max_restarts iterations, SolverUnavailable without the device,
// std::invalid_argument for a device LOBPCG does not run on.
EigenResult lobpcg(const CsrMatrix& k, const CsrMatrix& m, NodeLayout nodes, const AmgOptions& amg,
                   const EigenOptions& options);

}  // namespace fem::eigen

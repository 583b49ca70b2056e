#pragma once
// From the tentative prolongator to the coarse operator: one damped-Jacobi step smooths T into
// P = (I - omega D^-1 A) T, which lowers the energy of the coarse basis functions (the "smoothed"
// of smoothed aggregation), and the coarse operator is the Galerkin product P^T A P.
#include <span>
#include <utility>

#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

// P = T - omega D^-1 (A T) from A T (made in place), with omega = 4/3 / lambda_max(D^-1 A) as a
// rule. A T, whose pattern holds T's (A has every diagonal block), does not depend on omega: the
// setup makes it while lambda_max is sought.
BlockSparse smoothed_prolongator(BlockSparse at, const BlockSparse& t, std::span<const double> inv_diag, double omega);

// P as smoothed_prolongator() and R = P^T, in one pass over A T (each row damped, then scattered
// into R by the thread that damped it).
std::pair<BlockSparse, BlockSparse> smoothed_prolongator_and_restriction(BlockSparse at, const BlockSparse& t,
                                                                         std::span<const double> inv_diag,
                                                                         double omega);

// R = P^T = T^T - omega (A T)^T D^-1 from (A T)^T (made in place): the transpose is made before
// omega is known, and the result is transpose(P) to the last bit.
BlockSparse smoothed_restriction(BlockSparse at_transposed, const BlockSparse& t, std::span<const double> inv_diag,
                                 double omega);

// P^T A P: its upper half (A P made row by row as that needs it, never whole; P^T's blocks read
// from P's), the lower mirrored. A coarse dof whose column of P is zero (its near-null vector
// vanished on the aggregate) would have an empty row: it gets a unit diagonal, stays decoupled and
// so never receives a correction. `thread_seconds` as upper_triple_product's.
BlockSparse galerkin_product(const BlockSparse& a, const BlockSparse& p, std::vector<double>* thread_seconds = nullptr);
// The same from its upper half made elsewhere (a device's upper_galerkin_product()).
BlockSparse galerkin_from_upper(const BlockSparse& upper);

}  // namespace fem::amg

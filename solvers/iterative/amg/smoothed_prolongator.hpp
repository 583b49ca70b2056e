#pragma once
// From the tentative prolongator to the coarse operator: one damped-Jacobi step smooths T into
// P = (I - omega D^-1 A) T, which lowers the energy of the coarse basis functions (the "smoothed"
// of smoothed aggregation), and the coarse operator is the Galerkin product P^T A P.
#include <span>

#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

// P = T - omega D^-1 (A T), with omega = 4/3 / lambda_max(D^-1 A) as a rule.
BlockSparse smoothed_prolongator(const BlockSparse& a, const BlockSparse& t, std::span<const double> inv_diag,
                                 double omega);

// R A P with R = P^T given: its upper half (A P made row by row as that needs it, never whole),
// the lower mirrored. A coarse dof whose column of P is zero (its near-null vector vanished on the
// aggregate) would have an empty row: it gets a unit diagonal, stays decoupled and so never
// receives a correction.
BlockSparse galerkin_product(const BlockSparse& r, const BlockSparse& a, const BlockSparse& p);

}  // namespace fem::amg

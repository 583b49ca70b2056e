#pragma once
// The largest eigenvalue of D^-1 A, which sets both the prolongator's damping (omega = 4/3 / rho)
// and the upper end of the Chebyshev smoother's interval.
#include <span>

#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

// A few Lanczos steps on D^-1 A in the D inner product (A symmetric positive semi-definite, D its
// positive diagonal given as its inverse), from a fixed pseudo-random start; returns the largest
// Ritz value, a lower bound that the steps make close (callers add a margin where an
// underestimate would hurt).
// `a` is the single-precision copy the V-cycle multiplies with: half the bytes of each product,
// and the spectrum the Chebyshev smoother meets.
double largest_eigenvalue(const SingleBlockSparse& a, std::span<const double> inv_diag, int steps = 10);

}  // namespace fem::amg

#pragma once
// The largest eigenvalue of D^-1 A, which sets both the prolongator's damping (omega = 4/3 / rho)
// and the upper end of the Chebyshev smoother's interval.
#include <memory>
#include <span>

#include "kernels/sparse_backend.hpp"

namespace fem::amg {

// The start of the Lanczos steps on the back-end: D^-1/2 and q_0 = D^1/2 v for a fixed
// pseudo-random v (so that the Ritz values are those of D^-1 A from v), not yet normalised. Made
// on the host and copied over: tens of milliseconds at millions of equations, which a caller may
// spend beside the copy of the matrix.
struct LanczosStart {
  std::unique_ptr<kernels::BlockDiagonal> scale;
  std::unique_ptr<kernels::SparseVector> q;
};
LanczosStart lanczos_start(const kernels::SparseBackend& backend, std::span<const double> inv_diag);

// A few Lanczos steps on D^-1/2 A D^-1/2 (similar to D^-1 A; A symmetric positive
// semi-definite, D its positive diagonal given as its inverse) from a fixed pseudo-random start,
// on the sparse back-end that holds `a` (the level's single-precision copy the V-cycle multiplies
// with: the spectrum the Chebyshev smoother meets); returns the largest Ritz value, a lower bound
// that the steps make close (callers add a margin where an underestimate would hurt).
double largest_eigenvalue(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a,
                          std::span<const double> inv_diag, int steps = 10);
// The same from a start made by lanczos_start() for `a`'s diagonal.
double largest_eigenvalue(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a, LanczosStart start,
                          int steps = 10);

}  // namespace fem::amg

#pragma once
// The smoother of one AMG level: a polynomial in D^-1 A (Chebyshev over the upper part of the
// spectrum, or l1-Jacobi sweeps), the same before and after the coarse correction so that the
// V-cycle stays symmetric and CG may use it. Each step is one block SpMV and one fused
// diagonal step on the sparse back-end.
#include <memory>
#include <span>
#include <string>

#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "solvers/solver_choices.hpp"

namespace fem::amg {

// Throws std::invalid_argument for a degree below 1.
void check_smoother_degree(int degree);

class Smoother {
 public:
  // kind: Chebyshev (interval [upper / 10, upper], upper = 1.1 lambda_max of D^-1 A) or
  // L1Jacobi (D_ii = sum_j |a_ij| given as `l1_row_sums`, convergent without damping; unread
  // by Chebyshev); `degree` steps. `a` is the level's operator on `backend`.
  Smoother(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a, std::span<const double> inv_diag,
           std::span<const double> l1_row_sums, double lambda_max, AmgSmoother kind, int degree);

  // x = S b from a zero start; r becomes b - A x (the residual the coarse level needs).
  void from_zero(const kernels::SparseVector& b, kernels::SparseVector& x, kernels::SparseVector& r) const;
  // x += S (b - A x); r is scratch.
  void improve(const kernels::SparseVector& b, kernels::SparseVector& x, kernels::SparseVector& r) const;

  std::size_t bytes() const { return 2 * scale_->size() * sizeof(double); }

 private:
  // `degree` steps on x with its residual r (x taken as zero when `x_zero`); the last step
  // updates r only if asked.
  void steps(kernels::SparseVector& x, kernels::SparseVector& r, bool x_zero, bool residual_after) const;

  const kernels::SparseBackend& backend_;
  const kernels::SparseMatrix& a_;
  bool chebyshev_;
  int degree_;
  double theta_ = 0, delta_ = 0;                 // Chebyshev: centre and half-width of the interval
  std::unique_ptr<kernels::SparseVector> scale_;  // D^-1 (Chebyshev) or D_l1^-1
  std::unique_ptr<kernels::SparseVector> step_;
};

}  // namespace fem::amg

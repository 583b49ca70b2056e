#pragma once
// The smoother of one AMG level: a polynomial in D^-1 A (Chebyshev over the upper part of the
// spectrum, or l1-Jacobi sweeps), the same before and after the coarse correction so that the
// V-cycle stays symmetric and CG may use it. Each step is one SpMV and vector updates.
#include <span>
#include <string>
#include <vector>

#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

class Smoother {
 public:
  // kind: "chebyshev" (interval [upper / 10, upper], upper = 1.1 lambda_max of D^-1 A) or
  // "l1-jacobi" (D_ii = sum_j |a_ij|, convergent without damping); `degree` steps.
  Smoother(const SingleBlockSparse& a, std::span<const double> inv_diag, double lambda_max, const std::string& kind,
           int degree);

  // x = S b from a zero start; r becomes b - A x (the residual the coarse level needs).
  void from_zero(std::span<const double> b, std::span<double> x, std::span<double> r) const;
  // x += S (b - A x); r is scratch.
  void improve(std::span<const double> b, std::span<double> x, std::span<double> r) const;

  std::size_t bytes() const { return (scale_.size() + step_.size()) * sizeof(double); }

 private:
  // `degree` steps on x with its residual r; the last step updates r only if asked.
  void steps(std::span<double> x, std::span<double> r, bool residual_after) const;

  const SingleBlockSparse& a_;
  bool chebyshev_;
  int degree_;
  double theta_ = 0, delta_ = 0;  // Chebyshev: centre and half-width of the interval
  std::vector<double> scale_;     // D^-1 (Chebyshev) or D_l1^-1
  mutable std::vector<double> step_;
};

}  // namespace fem::amg

#include "solvers/iterative/amg/smoother.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace fem::amg {

void check_smoother_degree(int degree) {
  if (degree < 1) throw std::invalid_argument("amg smoother degree must be at least 1");
}

Smoother::Smoother(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a,
                   std::span<const double> inv_diag, std::span<const double> l1_row_sums, double lambda_max,
                   AmgSmoother kind, int degree)
    : backend_(backend), a_(a), chebyshev_(kind == AmgSmoother::Chebyshev), degree_(degree),
      scale_(backend.vector(inv_diag.size())), step_(backend.vector(inv_diag.size())) {
  check_smoother_degree(degree);
  if (chebyshev_) {
    const double upper = 1.1 * lambda_max, lower = upper / 10;
    theta_ = 0.5 * (upper + lower);
    delta_ = 0.5 * (upper - lower);
    scale_->upload(inv_diag);
    return;
  }
  if (l1_row_sums.size() != inv_diag.size())
    throw std::invalid_argument("amg l1-jacobi smoother: " + std::to_string(l1_row_sums.size()) + " row sums for " +
                                std::to_string(inv_diag.size()) + " rows");
  std::vector<double> scale(l1_row_sums.begin(), l1_row_sums.end());
  for (double& s : scale) s = 1.0 / s;
  scale_->upload(scale);
}

void Smoother::steps(kernels::SparseVector& x, kernels::SparseVector& r, bool x_zero, bool residual_after) const {
  // Chebyshev (Saad, Iterative Methods, Alg. 12.1): rho_k = 1 / (2 sigma - rho_{k-1}).
  const double sigma = chebyshev_ ? theta_ / delta_ : 0.0;
  double rho = chebyshev_ ? 1.0 / sigma : 0.0;
  for (int k = 0; k < degree_; ++k) {
    const double keep_x = k == 0 && x_zero ? 0.0 : 1.0;
    if (!chebyshev_) {
      backend_.diagonal_step(1.0, *scale_, r, 0.0, *step_, keep_x, x);
    } else if (k == 0) {
      backend_.diagonal_step(1.0 / theta_, *scale_, r, 0.0, *step_, keep_x, x);
    } else {
      const double rho_next = 1.0 / (2 * sigma - rho);
      const double keep = rho_next * rho, c = 2 * rho_next / delta_;
      rho = rho_next;
      backend_.diagonal_step(c, *scale_, r, keep, *step_, 1.0, x);
    }
    if (k + 1 < degree_ || residual_after) backend_.block_spmv(a_, -1.0, *step_, 1.0, r);
  }
}

void Smoother::from_zero(const kernels::SparseVector& b, kernels::SparseVector& x, kernels::SparseVector& r) const {
  backend_.axpby(1.0, b, 0.0, r);
  steps(x, r, true, true);
}

void Smoother::improve(const kernels::SparseVector& b, kernels::SparseVector& x, kernels::SparseVector& r) const {
  backend_.axpby(1.0, b, 0.0, r);
  backend_.block_spmv(a_, -1.0, x, 1.0, r);
  steps(x, r, false, false);
}

}  // namespace fem::amg

#include "solvers/iterative/amg/smoother.hpp"

#include <stdexcept>

namespace fem::amg {
namespace {
constexpr std::int64_t kParallelFrom = 50000;
}  // namespace

Smoother::Smoother(const SingleBlockSparse& a, std::span<const double> inv_diag, double lambda_max, const std::string& kind,
                   int degree)
    : a_(a), chebyshev_(kind == "chebyshev"), degree_(degree), step_(static_cast<std::size_t>(a.rows())) {
  if (kind != "chebyshev" && kind != "l1-jacobi")
    throw std::invalid_argument("amg smoother '" + kind + "' is not one of: chebyshev, l1-jacobi");
  if (degree < 1) throw std::invalid_argument("amg smoother degree must be at least 1");
  if (chebyshev_) {
    const double upper = 1.1 * lambda_max, lower = upper / 10;
    theta_ = 0.5 * (upper + lower);
    delta_ = 0.5 * (upper - lower);
    scale_.assign(inv_diag.begin(), inv_diag.end());
    return;
  }
  scale_ = absolute_row_sums(a);
  for (double& s : scale_) s = 1.0 / s;
}

void Smoother::steps(std::span<double> x, std::span<double> r, bool residual_after) const {
  const auto n = static_cast<std::int64_t>(x.size());
  double* d = step_.data();
  const double* s = scale_.data();
  // Chebyshev (Saad, Iterative Methods, Alg. 12.1): rho_k = 1 / (2 sigma - rho_{k-1}).
  const double sigma = chebyshev_ ? theta_ / delta_ : 0.0;
  double rho = chebyshev_ ? 1.0 / sigma : 0.0;
  for (int k = 0; k < degree_; ++k) {
    if (!chebyshev_) {
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
      for (std::int64_t i = 0; i < n; ++i) d[i] = s[i] * r[i], x[i] += d[i];
    } else if (k == 0) {
      const double c = 1.0 / theta_;
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
      for (std::int64_t i = 0; i < n; ++i) d[i] = c * s[i] * r[i], x[i] += d[i];
    } else {
      const double rho_next = 1.0 / (2 * sigma - rho);
      const double keep = rho_next * rho, c = 2 * rho_next / delta_;
      rho = rho_next;
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
      for (std::int64_t i = 0; i < n; ++i) d[i] = keep * d[i] + c * s[i] * r[i], x[i] += d[i];
    }
    if (k + 1 < degree_ || residual_after) multiply_add(a_, step_, r, -1.0);
  }
}

void Smoother::from_zero(std::span<const double> b, std::span<double> x, std::span<double> r) const {
  std::copy(b.begin(), b.end(), r.begin());
  std::fill(x.begin(), x.end(), 0.0);
  steps(x, r, true);
}

void Smoother::improve(std::span<const double> b, std::span<double> x, std::span<double> r) const {
  multiply(a_, x, r);
  const auto n = static_cast<std::int64_t>(r.size());
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
  for (std::int64_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
  steps(x, r, false);
}

}  // namespace fem::amg

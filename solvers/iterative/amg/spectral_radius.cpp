#include "solvers/iterative/amg/spectral_radius.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "kernels/cpu/sparse_backend_cpu.hpp"

namespace fem::amg {
namespace {

// How many eigenvalues of the symmetric tridiagonal (alpha, beta) are below x (Sturm sequence).
int eigenvalues_below(const std::vector<double>& alpha, const std::vector<double>& beta, double x) {
  int count = 0;
  double q = 1.0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double b2 = i == 0 ? 0.0 : beta[i - 1] * beta[i - 1];
    q = alpha[i] - x - (i == 0 ? 0.0 : b2 / q);
    if (q == 0) q = 1e-300;
    if (q < 0) ++count;
  }
  return count;
}

// The largest eigenvalue of the tridiagonal by bisection inside its Gershgorin interval.
double largest_tridiagonal_eigenvalue(const std::vector<double>& alpha, const std::vector<double>& beta) {
  double lo = 0, hi = 0;
  for (std::size_t i = 0; i < alpha.size(); ++i) {
    const double radius = (i > 0 ? std::abs(beta[i - 1]) : 0.0) + (i < beta.size() ? std::abs(beta[i]) : 0.0);
    lo = std::min(lo, alpha[i] - radius);
    hi = std::max(hi, alpha[i] + radius);
  }
  const int n = static_cast<int>(alpha.size());
  for (int it = 0; it < 100 && hi - lo > 1e-12 * std::max(1.0, std::abs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (eigenvalues_below(alpha, beta, mid) < n ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace

double largest_eigenvalue(const SingleBlockSparse& a, std::span<const double> inv_diag, int steps) {
  const auto n = static_cast<std::size_t>(a.rows());
  steps = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(steps), n));
  std::vector<double> v(n), v_prev(n, 0.0), w(n);
  std::mt19937 rng(2718);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double& x : v) x = uniform(rng);
  // <x, y>_D = sum x_i y_i / inv_diag_i
  const auto d_norm = [&](const std::vector<double>& x) {
    double s = 0;
#pragma omp parallel for reduction(+ : s) schedule(static) if (n > 50000)
    for (std::size_t i = 0; i < n; ++i) s += x[i] * x[i] / inv_diag[i];
    return std::sqrt(s);
  };
  const double v_norm = d_norm(v);
  for (double& x : v) x /= v_norm;
  std::vector<double> alpha, beta;
  double beta_prev = 0;
  for (int j = 0; j < steps; ++j) {
    kernels::cpu::block_spmv(a, 1.0, v, 0.0, w);  // w = A v; alpha = <D^-1 A v, v>_D = (A v) . v
    double aj = 0;
#pragma omp parallel for reduction(+ : aj) schedule(static) if (n > 50000)
    for (std::size_t i = 0; i < n; ++i) aj += w[i] * v[i];
    alpha.push_back(aj);
#pragma omp parallel for schedule(static) if (n > 50000)
    for (std::size_t i = 0; i < n; ++i) w[i] = inv_diag[i] * w[i] - aj * v[i] - beta_prev * v_prev[i];
    const double bj = d_norm(w);
    if (!(bj > 1e-10 * std::abs(aj))) break;  // an invariant subspace: the Ritz values are exact
    beta.push_back(bj);
    beta_prev = bj;
    v_prev.swap(v);
#pragma omp parallel for schedule(static) if (n > 50000)
    for (std::size_t i = 0; i < n; ++i) v[i] = w[i] / bj;
  }
  beta.resize(alpha.size() - 1);
  return largest_tridiagonal_eigenvalue(alpha, beta);
}

}  // namespace fem::amg

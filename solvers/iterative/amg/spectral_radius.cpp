#include "solvers/iterative/amg/spectral_radius.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>


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

LanczosStart lanczos_start(const kernels::SparseBackend& backend, std::span<const double> inv_diag) {
  const std::size_t n = inv_diag.size();
  std::vector<double> host(n), root(n);
  std::mt19937 rng(2718);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) root[i] = std::sqrt(inv_diag[i]), host[i] = uniform(rng) / root[i];
  LanczosStart start{backend.block_diagonal(root, 1), backend.vector(n)};
  start.q->upload(host);
  return start;
}

double largest_eigenvalue(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a,
                          std::span<const double> inv_diag, int steps) {
  return largest_eigenvalue(backend, a, lanczos_start(backend, inv_diag), steps);
}

double largest_eigenvalue(const kernels::SparseBackend& backend, const kernels::SparseMatrix& a, LanczosStart start,
                          int steps) {
  const std::size_t n = start.q->size();
  steps = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(steps), n));
  const kernels::BlockDiagonal& scale = *start.scale;  // D^-1/2
  auto q = std::move(start.q), q_prev = backend.vector(n), t = backend.vector(n), w = backend.vector(n);
  backend.axpby(1.0 / std::sqrt(backend.dot(*q, *q)), *q, 0.0, *q);
  std::vector<double> alpha, beta;
  double beta_prev = 0;
  for (int j = 0; j < steps; ++j) {
    backend.apply(scale, *q, *t);  // w = D^-1/2 A D^-1/2 q
    backend.block_spmv(a, 1.0, *t, 0.0, *w);
    backend.apply(scale, *w, *t);
    std::swap(t, w);
    const double aj = backend.dot(*w, *q);
    alpha.push_back(aj);
    backend.axpby(-aj, *q, 1.0, *w);
    if (j > 0) backend.axpby(-beta_prev, *q_prev, 1.0, *w);
    const double bj = std::sqrt(backend.dot(*w, *w));
    if (!(bj > 1e-10 * std::abs(aj))) break;  // an invariant subspace: the Ritz values are exact
    beta.push_back(bj);
    beta_prev = bj;
    std::swap(q_prev, q);
    backend.axpby(1.0 / bj, *w, 0.0, *q);
  }
  beta.resize(alpha.size() - 1);
  return largest_tridiagonal_eigenvalue(alpha, beta);
}

}  // namespace fem::amg

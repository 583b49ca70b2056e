#include "solvers/eigen/lobpcg.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include "kernels/sparse_backend.hpp"
#include "kernels/shared/vector_ops.hpp"
#include "solvers/eigen/shifted_matrix.hpp"
#include "solvers/iterative/amg/v_cycle.hpp"
#include "support/stopwatch.hpp"

namespace fem::eigen {
namespace {

// Column-major n x cols.
struct Block {
  std::int64_t n = 0;
  int cols = 0;
  std::vector<double> data;
  Block(std::int64_t rows = 0, int count = 0) : n(rows), cols(count), data(static_cast<std::size_t>(rows) * count, 0.0) {}
  double* col(int j) { return data.data() + static_cast<std::size_t>(j) * n; }
  const double* col(int j) const { return data.data() + static_cast<std::size_t>(j) * n; }
  std::span<const double> span(int j) const { return {col(j), static_cast<std::size_t>(n)}; }
};

Block times(const CsrMatrix& a, const Block& x) {
  Block y(x.n, x.cols);
  for (int j = 0; j < x.cols; ++j) cpu::spmv(a, x.span(j), {y.col(j), static_cast<std::size_t>(x.n)});
  return y;
}

// c = a^T b (a.cols x b.cols, column-major).
std::vector<double> inner(const Block& a, const Block& b) {
  std::vector<double> c(static_cast<std::size_t>(a.cols) * b.cols);
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, a.cols, b.cols, a.n, 1.0, a.data.data(), a.n, b.data.data(), b.n,
              0.0, c.data(), a.cols);
  return c;
}

// x c for c with x.cols rows and `count` columns (column-major, leading dimension ldc).
Block combine(const Block& x, const double* c, int ldc, int count) {
  Block y(x.n, count);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, x.n, count, x.cols, 1.0, x.data.data(), x.n, c, ldc, 0.0,
              y.data.data(), x.n);
  return y;
}

Block join(std::initializer_list<const Block*> parts) {
  Block s(parts.begin()[0]->n, 0);
  for (const Block* p : parts) {
    s.data.insert(s.data.end(), p->data.begin(), p->data.end());
    s.cols += p->cols;
  }
  return s;
}

// Eigenpairs of the symmetric q x q matrix h (overwritten by its eigenvectors), ascending.
std::vector<double> symmetric_eigen(std::vector<double>& h, int q) {
  std::vector<double> w(q);
  if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', q, h.data(), q, w.data()) != 0)
    throw EigenFailure("LOBPCG: a Rayleigh-Ritz eigenproblem did not converge (LAPACK dsyev)");
  return w;
}

// B such that (S B)^T M (S B) = I, from the eigenpairs of the scaled Gram matrix (SVQB);
// directions with relatively tiny Gram eigenvalues, dependent on the others, are left out.
std::vector<double> svqb(const Block& s, const Block& ms, int& kept) {
  const int c = s.cols;
  std::vector<double> g = inner(s, ms), d(c);
  for (int i = 0; i < c; ++i) d[i] = g[i * c + i] > 0 ? 1.0 / std::sqrt(g[i * c + i]) : 0.0;
  for (int j = 0; j < c; ++j)
    for (int i = 0; i < c; ++i) g[j * c + i] *= d[i] * d[j];
  const std::vector<double> mu = symmetric_eigen(g, c);
  const double floor = 1e-13 * std::max(mu.back(), 0.0);
  std::vector<double> b;
  kept = 0;
  for (int j = 0; j < c; ++j) {
    if (!(mu[j] > floor)) continue;
    for (int i = 0; i < c; ++i) b.push_back(d[i] * g[j * c + i] / std::sqrt(mu[j]));
    ++kept;
  }
  return b;
}

// Equations whose row of M has a positive diagonal: the others (fixed, or massless) stay zero in
// every vector, or their directions would be eigenvectors of infinite frequency.
std::vector<char> equations_with_mass(const CsrMatrix& m) {
  std::vector<char> has_mass(m.rows, 0);
  for (std::int64_t i = 0; i < m.rows; ++i)
    for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
      if (m.col[p] == i && m.val[p] > 0) has_mass[i] = 1;
  return has_mass;
}

// A few more vectors than modes: a cluster at the edge of the wanted set converges with them.
// The search space holds three blocks, so it must fit three times in the equations with mass.
int block_size(int modes, std::int64_t with_mass) {
  const int block = static_cast<int>(std::min<std::int64_t>(modes + std::max(modes / 2, 6), with_mass / 3));
  if (block < modes)
    throw EigenFailure(std::to_string(modes) + " modes asked for, but only " + std::to_string(with_mass) +
                       " equations carry mass: LOBPCG needs three times as many; ask for fewer modes");
  return block;
}

// The preconditioner: one AMG V-cycle on K - sigma M.
std::unique_ptr<amg::VCycle> shifted_v_cycle(const kernels::SparseBackend& backend, const CsrMatrix& shifted,
                                             const NodeLayout& nodes, const AmgOptions& amg, double shift) {
  try {
    return std::make_unique<amg::VCycle>(backend, shifted, nodes, amg);
  } catch (const SolveFailure& e) {
    std::ostringstream text;
    text << "LOBPCG: AMG could not be set up on K - sigma M with sigma = " << shift << " (" << e.what()
         << "); lower analysis.shift";
    throw EigenFailure(text.str(), e.equation());
  }
}

// The largest absolute row sums of K and M: what roundoff leaves in K x - lambda M x scales with them.
struct RowSumNorms {
  double k = 0, m = 0;
};

RowSumNorms row_sum_norms(const CsrMatrix& k, const CsrMatrix& m) {
  RowSumNorms norms;
  for (std::int64_t i = 0; i < k.rows; ++i) {
    double sk = 0, sm = 0;
    for (auto p = k.row_ptr[i]; p < k.row_ptr[i + 1]; ++p) sk += std::abs(k.val[p]);
    for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) sm += std::abs(m.val[p]);
    norms.k = std::max(norms.k, sk);
    norms.m = std::max(norms.m, sm);
  }
  return norms;
}

// Random starting vectors (a fixed seed: runs repeat), zero where there is no mass.
Block random_start(std::int64_t n, int block, const std::vector<char>& has_mass) {
  Block x(n, block);
  std::mt19937_64 random(20261206);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (double& v : x.data) v = uniform(random);
  for (int j = 0; j < block; ++j)
    for (std::int64_t i = 0; i < n; ++i)
      if (!has_mass[i]) x.col(j)[i] = 0;
  return x;
}

// The new P: the part of the new X that came from W and P, in the columns of S = [X, W, P]
// (S's coefficients B times the Ritz vectors' C, of which the rows past X's are kept).
Block new_directions(const Block& s, const std::vector<double>& b, const std::vector<double>& ritz, int q, int block,
                     const Block& w, const Block& p) {
  std::vector<double> bc(static_cast<std::size_t>(s.cols) * block);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, s.cols, block, q, 1.0, b.data(), s.cols, ritz.data(), q, 0.0,
              bc.data(), s.cols);
  const Block wp = join({&w, &p});
  std::vector<double> tail(static_cast<std::size_t>(wp.cols) * block);
  for (int j = 0; j < block; ++j)
    std::copy_n(&bc[static_cast<std::size_t>(j) * s.cols + block], wp.cols, &tail[static_cast<std::size_t>(j) * wp.cols]);
  return combine(wp, tail.data(), wp.cols, block);
}

// The residuals R = K X - M X Lambda, and how many of the first `modes` columns meet the
// tolerance relative as mode_residuals measures it, or the roundoff floor.
struct Residuals {
  Block r;
  int converged = 0;
};

Residuals residuals(const Block& x, const Block& kx, const Block& mx, const std::vector<double>& lambda, int modes,
                    double reference, RowSumNorms norms, double tolerance) {
  Residuals out{Block(x.n, x.cols), 0};
  for (int j = 0; j < x.cols; ++j) {
    for (std::int64_t i = 0; i < x.n; ++i) out.r.col(j)[i] = kx.col(j)[i] - lambda[j] * mx.col(j)[i];
    const double norm_x = std::sqrt(cpu::dot(x.span(j), x.span(j)));
    const double scale = std::max(std::sqrt(cpu::dot(kx.span(j), kx.span(j))),
                                  reference * std::sqrt(cpu::dot(mx.span(j), mx.span(j))));
    const double attainable = 1e3 * std::numeric_limits<double>::epsilon() * (norms.k + std::abs(lambda[j]) * norms.m) * norm_x;
    const double residual = std::sqrt(cpu::dot(out.r.span(j), out.r.span(j)));
    if (j < modes && residual <= std::max(tolerance * scale, attainable)) ++out.converged;
  }
  return out;
}

}  // namespace

EigenResult lobpcg(const CsrMatrix& k, const CsrMatrix& m, NodeLayout nodes, const AmgOptions& amg,
                   const EigenOptions& options) {
  const std::int64_t n = k.rows;
  if (m.rows != n) throw std::invalid_argument("lobpcg: K and M differ in size");
  if (options.modes < 1) throw std::invalid_argument("lobpcg: modes must be at least 1");
  const std::vector<char> has_mass = equations_with_mass(m);
  const int modes = options.modes;
  const int block = block_size(modes, std::count(has_mass.begin(), has_mass.end(), 1));

  EigenResult result;
  result.shift = options.shift ? *options.shift : default_shift(k, m);
  result.block_size = block;
  result.subspace = 3 * block;
  const Stopwatch setup;
  const CsrMatrix shifted = shifted_matrix(k, m, result.shift);
  const auto backend = kernels::make_sparse_backend("cpu");
  const std::unique_ptr<amg::VCycle> cycle = shifted_v_cycle(*backend, shifted, nodes, amg, result.shift);
  result.setup.time_setup_s = setup.seconds();
  result.setup.memory_bytes = cycle->bytes();
  result.setup.figures = cycle->figures();
  const auto b_vector = backend->vector(n), x_vector = backend->vector(n);
  const auto precondition = [&](const Block& r) {
    const Stopwatch watch;
    Block w(n, r.cols);
    for (int j = 0; j < r.cols; ++j) {
      b_vector->upload(r.span(j));
      cycle->apply(*b_vector, *x_vector);
      x_vector->download({w.col(j), static_cast<std::size_t>(n)});
      for (std::int64_t i = 0; i < n; ++i)
        if (!has_mass[i]) w.col(j)[i] = 0;
    }
    result.solves += r.cols;
    result.time_solve_s += watch.seconds();
    return w;
  };
  const RowSumNorms norms = row_sum_norms(k, m);

  Block x = random_start(n, block, has_mass), w, p;
  std::vector<double> lambda;
  const Stopwatch since_report;
  double next_report = 2.0;
  for (int iteration = 0;; ++iteration) {
    // Rayleigh-Ritz on span[X, W, P], M-orthonormalised.
    const Block s = iteration == 0 ? x : join({&x, &w, &p});
    int q = 0;
    const std::vector<double> b = svqb(s, times(m, s), q);
    if (q < block) throw EigenFailure("LOBPCG: the search space collapsed below the block size");
    const Block basis = combine(s, b.data(), s.cols, q);
    const Block k_basis = times(k, basis);
    std::vector<double> h = inner(basis, k_basis);
    for (int j = 0; j < q; ++j)
      for (int i = j + 1; i < q; ++i) h[j * q + i] = h[i * q + j] = 0.5 * (h[j * q + i] + h[i * q + j]);
    const std::vector<double> theta = symmetric_eigen(h, q);
    lambda.assign(theta.begin(), theta.begin() + block);
    x = combine(basis, h.data(), q, block);
    if (iteration > 0) p = new_directions(s, b, h, q, block, w, p);

    const double reference = std::max(std::abs(result.shift), std::abs(lambda[modes - 1]));
    const Residuals r = residuals(x, combine(k_basis, h.data(), q, block), times(m, x), lambda, modes, reference, norms,
                                  options.tolerance);
    result.restarts = iteration;
    if (r.converged == modes) break;
    if (iteration == options.max_restarts) {
      std::ostringstream text;
      text << "LOBPCG did not converge: " << r.converged << " of " << modes << " modes within " << options.tolerance
           << " after " << iteration << " iterations; a better preconditioner (solver.amg) may help";
      throw EigenFailure(text.str());
    }
    if (options.progress && since_report.seconds() >= next_report) {
      next_report = since_report.seconds() + 2.0;
      options.progress("iteration " + std::to_string(iteration + 1) + ": " + std::to_string(r.converged) + " of " +
                       std::to_string(modes) + " modes converged");
    }
    w = precondition(r.r);
  }
  // M-orthonormal already (Ritz vectors of an M-orthonormal basis); ascending.
  result.eigenvalues.assign(lambda.begin(), lambda.begin() + modes);
  result.vectors.assign(x.data.begin(), x.data.begin() + static_cast<std::size_t>(modes) * n);
  return result;
}

}  // namespace fem::eigen

#include "solvers/eigen/shift_invert_lanczos.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "kernels/shared/vector_ops.hpp"
#include "solvers/eigen/shifted_matrix.hpp"
#include "support/stopwatch.hpp"

namespace fem::eigen {
namespace {

// Column-major blocks of vectors of length n.
struct Vectors {
  std::int64_t n = 0;
  std::vector<double> data;
  Vectors(std::int64_t length, int count) : n(length), data(static_cast<std::size_t>(length) * count, 0.0) {}
  double* col(int j) { return data.data() + static_cast<std::size_t>(j) * n; }
  std::span<double> span(int j) { return {col(j), static_cast<std::size_t>(n)}; }
};

class Lanczos {
 public:
  Lanczos(const CsrMatrix& k, const CsrMatrix& m, const EigenOptions& options)
      : k_(k), m_(m), n_(k.rows), options_(options) {
    if (m.rows != n_) throw std::invalid_argument("shift_invert_lanczos: K and M differ in size");
    if (options.modes < 1) throw std::invalid_argument("shift_invert_lanczos: modes must be at least 1");
    has_mass_.assign(n_, 0);
    for (std::int64_t i = 0; i < n_; ++i)
      for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
        if (m.col[p] == i && m.val[p] > 0) has_mass_[i] = 1;
    free_ = std::count(has_mass_.begin(), has_mass_.end(), 1);
    modes_ = options.modes;
    if (free_ <= modes_)
      throw EigenFailure(std::to_string(modes_) + " modes asked for, but only " + std::to_string(free_) +
                         " equations carry mass: ask for fewer modes or refine the mesh");
    block_ = std::min<std::int64_t>(options.block_size > 0 ? options.block_size : std::min(modes_, 6), free_ - modes_);
    subspace_ = options.subspace > 0 ? options.subspace : 2 * modes_ + 3 * block_;
    subspace_ = std::min<std::int64_t>(std::max(subspace_, modes_ + 2 * block_), free_);
    // Kept across a restart: the wanted pairs and half the rest, room for a block or more to grow.
    keep_ = std::clamp(modes_ + (subspace_ - modes_ - 2 * block_) / 2, modes_, subspace_ - block_);
  }

  EigenResult run(LinearSolver& solver, NodeLayout nodes) {
    EigenResult result;
    result.shift = options_.shift ? *options_.shift : default_shift(k_, m_);
    result.block_size = block_;
    result.subspace = subspace_;
    const CsrMatrix shifted = shifted_matrix(k_, m_, result.shift);
    try {
      prepared_ = solver.prepare(shifted, nodes);
    } catch (const SolveFailure& e) {
      throw EigenFailure(linear_failure(result.shift, e.what()), e.equation());
    }
    result.setup = prepared_->setup();
    result.reuses_preparation = prepared_->reuses_preparation();

    // The basis V and M V beside it: OP's right-hand sides and the projections read M V, so
    // M multiplies two whole blocks a step: W once projected, and the new block of V.
    Vectors v(n_, subspace_), mv(n_, subspace_), w(n_, block_), mw(n_, block_);
    std::vector<double> h(static_cast<std::size_t>(subspace_) * subspace_, 0.0);
    const auto H = [&](int i, int j) -> double& { return h[static_cast<std::size_t>(j) * subspace_ + i]; };
    for (int j = 0; j < block_; ++j) random_fill(w.col(j));
    multiply_m(w, mw);
    orthonormalise_into(v, mv, 0, w, mw, false);
    int p = block_;  // basis vectors; OP is yet to be applied to the last block of them
    bool in_span = false;  // whether the residual block W is rounding left in the basis's span
    std::vector<double> theta, s;
    std::vector<int> order;
    const Stopwatch since_report;
    double next_report = 2.0;
    for (int restart = 0;; ++restart) {
      for (;;) {
        apply_operator(mv.col(p - block_), w, result);
        // The block's columns of V^T M OP V, taken out of W.
        const std::vector<double> c = project_out(v, mv, p, w);
        multiply_m(w, mw);
        in_span = numerically_in_span(c, p, w, mw);
        for (int j = 0; j < block_; ++j)
          for (int i = 0; i < p; ++i) H(i, p - block_ + j) = H(p - block_ + j, i) = c[static_cast<std::size_t>(j) * p + i];
        for (int a = p - block_; a < p; ++a)  // the block's own square: symmetric up to roundoff
          for (int b = a + 1; b < p; ++b) H(a, b) = H(b, a) = 0.5 * (H(a, b) + H(b, a));
        if (p + block_ > subspace_) break;
        orthonormalise_into(v, mv, p, w, mw, in_span);
        p += block_;
      }
      ritz(h, p, theta, s, order);
      // ||OP y - theta y||_M = ||W s_last||_M for y = V s, with W the residual block.
      const std::vector<double> gram = gram_of(w, mw);
      // A pair far from the shift cannot be resolved below roundoff in the operator's largest theta.
      const double attainable = 64 * std::numeric_limits<double>::epsilon() * std::abs(theta[order[0]]);
      int converged = 0;
      for (int i = 0; i < modes_; ++i) {
        const double* last = &s[static_cast<std::size_t>(order[i]) * p + p - block_];
        double e = 0;
        for (int a = 0; a < block_; ++a)
          for (int b = 0; b < block_; ++b) e += last[a] * gram[a * block_ + b] * last[b];
        if (std::sqrt(std::max(e, 0.0)) <= std::max(options_.tolerance * std::abs(theta[order[i]]), attainable)) ++converged;
      }
      result.restarts = restart;
      if (converged == modes_) {
        finish(v, p, theta, s, order, result);
        return result;
      }
      if (restart == options_.max_restarts) {
        std::ostringstream text;
        text << "shift-invert Lanczos did not converge: " << converged << " of " << modes_ << " modes within "
             << options_.tolerance << " after " << restart << " restarts (" << result.solves
             << " solves); the shift " << result.shift
             << " may lie too far from the wanted eigenvalues, or the matrices be inconsistent";
        throw EigenFailure(text.str());
      }
      if (options_.progress && since_report.seconds() >= next_report) {
        next_report = since_report.seconds() + 2.0;
        options_.progress("restart " + std::to_string(restart + 1) + ": " + std::to_string(converged) + " of " +
                          std::to_string(modes_) + " modes converged, " + std::to_string(result.solves) + " solves");
      }
      // Thick restart: the best `keep_` Ritz vectors, whose projection is diagonal, then the residual block.
      Vectors kept(n_, keep_);
      for (Vectors* basis : {&v, &mv}) {  // M (V s) = (M V) s
        combine(*basis, p, s, order, keep_, kept);
        std::copy(kept.data.begin(), kept.data.end(), basis->data.begin());
      }
      std::fill(h.begin(), h.end(), 0.0);
      for (int i = 0; i < keep_; ++i) H(i, i) = theta[order[i]];
      orthonormalise_into(v, mv, keep_, w, mw, in_span);
      p = keep_ + block_;
    }
  }

 private:
  static std::string linear_failure(double shift, const std::string& why) {
    std::ostringstream text;
    text << "K - sigma M with the shift sigma = " << shift << " could not be solved (" << why
         << "): a direct solver's Cholesky needs the shift below every eigenvalue (lower analysis.shift), an "
            "iterative one may need a stronger preconditioner";
    return text.str();
  }

  void random_fill(double* x) {
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (std::int64_t i = 0; i < n_; ++i) x[i] = has_mass_[i] ? uniform(random_) : 0.0;
  }

  void apply_m(const double* x, double* y) const {
    cpu::spmv(m_, {x, static_cast<std::size_t>(n_)}, {y, static_cast<std::size_t>(n_)});
  }

  // out = M x for a whole block, in one pass over M.
  void multiply_m(Vectors& x, Vectors& out) const { cpu::spmv_columns(m_, x.data, out.data); }

  // out = OP x = (K - sigma M)^-1 M x for the block whose M x starts at `mx`.
  void apply_operator(const double* mx, Vectors& out, EigenResult& result) {
    std::fill(out.data.begin(), out.data.end(), 0.0);
    SolveReport report;
    try {
      report = prepared_->solve({mx, out.data.size()}, out.data, block_);
    } catch (const SolveFailure& e) {
      throw EigenFailure(linear_failure(result.shift, e.what()), e.equation());
    }
    result.time_solve_s += report.time_solve_s;
    result.solves += block_;
  }

  // W -= V c twice (for orthogonality to working precision) with c = (M V)^T W = V^T M W;
  // returns the sum of both c (p x block, column-major).
  std::vector<double> project_out(Vectors& v, Vectors& mv, int p, Vectors& w) const {
    std::vector<double> c(static_cast<std::size_t>(p) * block_, 0.0), pass(c.size());
    for (int twice = 0; twice < 2; ++twice) {
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, p, block_, n_, 1.0, mv.data.data(), n_, w.data.data(), n_,
                  0.0, pass.data(), p);
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n_, block_, p, -1.0, v.data.data(), n_, pass.data(), p,
                  1.0, w.data.data(), n_);
      for (std::size_t i = 0; i < c.size(); ++i) c[i] += pass[i];
    }
    return c;
  }

  // W^T M W from W and M W (block x block, symmetric).
  std::vector<double> gram_of(Vectors& w, Vectors& mw) const {
    std::vector<double> g(static_cast<std::size_t>(block_) * block_);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, block_, block_, n_, 1.0, w.data.data(), n_, mw.data.data(),
                n_, 0.0, g.data(), block_);
    return g;
  }

  // Whether a column of W lost nearly all its M-length to the projection (what it had is c's
  // column): what is left is rounding, which two passes do not make orthogonal enough to grow
  // the basis with; it goes column by column, projected twice more.
  bool numerically_in_span(const std::vector<double>& c, int p, Vectors& w, Vectors& mw) const {
    for (int j = 0; j < block_; ++j) {
      double projected = 0;
      for (int i = 0; i < p; ++i) projected += c[static_cast<std::size_t>(j) * p + i] * c[static_cast<std::size_t>(j) * p + i];
      const double left = cpu::dot(w.span(j), mw.span(j));
      if (!(left > 1e-20 * (projected + left))) return true;  // below 1e-10 of its length
    }
    return false;
  }

  // Makes W (M-orthogonal to V[:, 0:q] already, M W beside it) M-orthonormal into
  // V[:, q:q+block], and M V there from one product with M. Cholesky QR twice in the M inner
  // product (W = Q R, Q^T M Q = I) keeps it to a few BLAS-3 calls; a block left by rounding
  // (`in_span`), or whose columns are nearly dependent, where Cholesky QR loses orthogonality,
  // goes column by column instead.
  void orthonormalise_into(Vectors& v, Vectors& mv, int q, Vectors& w, Vectors& mw, bool in_span) {
    if (in_span) {
      orthonormalise_by_columns(v, mv, q, w);
      return;
    }
    for (int pass = 0; pass < 2; ++pass) {
      std::vector<double> r = gram_of(w, mw);
      if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'U', block_, r.data(), block_) != 0 || !well_conditioned(r)) {
        orthonormalise_by_columns(v, mv, q, w);
        return;
      }
      for (Vectors* x : {&w, &mw})
        cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, n_, block_, 1.0, r.data(),
                    block_, x->data.data(), n_);
    }
    // M V from M itself, not carried through R^-1, so that OP's right-hand sides stay exact.
    multiply_m(w, mw);
    std::copy(w.data.begin(), w.data.end(), v.col(q));
    std::copy(mw.data.begin(), mw.data.end(), mv.col(q));
  }

  // Cholesky QR stays orthogonal to working precision while W's condition number is well below
  // 1/sqrt(epsilon); R's diagonal spread bounds it from below.
  bool well_conditioned(const std::vector<double>& r) const {
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (int j = 0; j < block_; ++j) {
      lo = std::min(lo, r[static_cast<std::size_t>(j) * block_ + j]);
      hi = std::max(hi, r[static_cast<std::size_t>(j) * block_ + j]);
    }
    return lo > 1e-5 * hi;
  }

  // The same column by column, each M-orthogonalised twice against every vector before it; a
  // column that was (nearly) in the span already is replaced by a random one: the basis grows anyway.
  void orthonormalise_by_columns(Vectors& v, Vectors& mv, int q, Vectors& w) {
    std::vector<double> c(subspace_);
    for (int j = 0; j < block_; ++j) {
      double* x = v.col(q + j);
      double* mx = mv.col(q + j);
      std::copy(w.col(j), w.col(j) + n_, x);
      const std::span<double> xs = v.span(q + j), mxs = mv.span(q + j);
      for (int attempt = 0;; ++attempt) {
        apply_m(x, mx);
        const double before = std::sqrt(std::max(cpu::dot(xs, mxs), 0.0));
        for (int pass = 0; pass < 2 && q + j > 0; ++pass) {
          cblas_dgemv(CblasColMajor, CblasTrans, n_, q + j, 1.0, mv.data.data(), n_, x, 1, 0.0, c.data(), 1);
          cblas_dgemv(CblasColMajor, CblasNoTrans, n_, q + j, -1.0, v.data.data(), n_, c.data(), 1, 1.0, x, 1);
        }
        apply_m(x, mx);
        const double after = std::sqrt(std::max(cpu::dot(xs, mxs), 0.0));
        if (after > 1e-10 * before && after > 0) {
          for (std::int64_t i = 0; i < n_; ++i) {
            x[i] /= after;
            mx[i] /= after;
          }
          break;
        }
        if (attempt == 3) throw std::logic_error("shift_invert_lanczos: no vector independent of the basis");
        random_fill(x);
      }
    }
  }

  // Eigenpairs of the projected matrix h[0:p, 0:p]: theta, s (p x p, column-major), and `order`
  // ranking them nearest the shift first (largest |theta|).
  void ritz(const std::vector<double>& h, int p, std::vector<double>& theta, std::vector<double>& s,
            std::vector<int>& order) const {
    s.assign(static_cast<std::size_t>(p) * p, 0.0);
    for (int j = 0; j < p; ++j)
      for (int i = 0; i < p; ++i) s[static_cast<std::size_t>(j) * p + i] = h[static_cast<std::size_t>(j) * subspace_ + i];
    theta.assign(p, 0.0);
    if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', p, s.data(), p, theta.data()) != 0)
      throw EigenFailure("shift-invert Lanczos: the projected eigenproblem did not converge (LAPACK dsyev)");
    order.resize(p);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return std::abs(theta[a]) > std::abs(theta[b]); });
  }

  // out[:, 0:count] = V[:, 0:p] s[:, order[0:count]].
  void combine(Vectors& v, int p, const std::vector<double>& s, const std::vector<int>& order, int count, Vectors& out) const {
    std::vector<double> chosen(static_cast<std::size_t>(p) * count);
    for (int j = 0; j < count; ++j)
      std::copy_n(&s[static_cast<std::size_t>(order[j]) * p], p, &chosen[static_cast<std::size_t>(j) * p]);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n_, count, p, 1.0, v.data.data(), n_, chosen.data(), p, 0.0,
                out.data.data(), n_);
  }

  void finish(Vectors& v, int p, const std::vector<double>& theta, const std::vector<double>& s,
              const std::vector<int>& order, EigenResult& result) const {
    Vectors x(n_, modes_);
    combine(v, p, s, order, modes_, x);
    std::vector<int> rank(modes_);
    std::iota(rank.begin(), rank.end(), 0);
    const auto lambda = [&](int i) { return result.shift + 1.0 / theta[order[i]]; };
    std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) { return lambda(a) < lambda(b); });
    for (int i : rank) {
      result.eigenvalues.push_back(lambda(i));
      result.vectors.insert(result.vectors.end(), x.col(i), x.col(i) + n_);
    }
  }

  const CsrMatrix& k_;
  const CsrMatrix& m_;
  std::int64_t n_;
  const EigenOptions& options_;
  std::vector<char> has_mass_;
  std::int64_t free_ = 0;
  int modes_ = 0, block_ = 0, subspace_ = 0, keep_ = 0;
  std::mt19937_64 random_{20261206};
  std::unique_ptr<PreparedSolver> prepared_;
};

}  // namespace

EigenResult shift_invert_lanczos(const CsrMatrix& k, const CsrMatrix& m, LinearSolver& solver, NodeLayout nodes,
                                 const EigenOptions& options) {
  return Lanczos(k, m, options).run(solver, nodes);
}

}  // namespace fem::eigen

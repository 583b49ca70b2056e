#include "solvers/eigen/lobpcg.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "kernels/sparse_backend.hpp"
#include "solvers/eigen/shifted_matrix.hpp"
#include "solvers/eigen/vector_blocks.hpp"
#include "solvers/iterative/amg/v_cycle.hpp"
#include "support/stopwatch.hpp"

namespace fem::eigen {
namespace {

// Eigenpairs of the symmetric q x q matrix h (overwritten by its eigenvectors), ascending.
std::vector<double> symmetric_eigen(std::vector<double>& h, int q) {
  std::vector<double> w(q);
  if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'U', q, h.data(), q, w.data()) != 0)
    throw EigenFailure("LOBPCG: a Rayleigh-Ritz eigenproblem did not converge (LAPACK dsyev)");
  return w;
}

void symmetrize(std::vector<double>& h, int q) {
  for (int j = 0; j < q; ++j)
    for (int i = j + 1; i < q; ++i) h[j * q + i] = h[i * q + j] = 0.5 * (h[j * q + i] + h[i * q + j]);
}

// B (c x kept) such that (S B)^T M (S B) = I, from the Gram matrix g = S^T M S by the eigenpairs
// of its scaled form (SVQB); directions with relatively tiny Gram eigenvalues, dependent on the
// others, are left out.
std::vector<double> svqb(std::vector<double> g, int c, int& kept) {
  symmetrize(g, c);
  std::vector<double> d(c);
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
#pragma omp parallel for schedule(static)
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
  double largest_k = 0, largest_m = 0;
#pragma omp parallel for schedule(static) reduction(max : largest_k, largest_m)
  for (std::int64_t i = 0; i < k.rows; ++i) {
    double sk = 0, sm = 0;
    for (auto p = k.row_ptr[i]; p < k.row_ptr[i + 1]; ++p) sk += std::abs(k.val[p]);
    for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p) sm += std::abs(m.val[p]);
    largest_k = std::max(largest_k, sk);
    largest_m = std::max(largest_m, sm);
  }
  return {largest_k, largest_m};
}

// Random starting vectors (column-major n x block), zero where there is no mass. Each entry a
// function of its place alone (SplitMix64 of its index, fixed seed): runs repeat, and threads
// fill the block in any order.
std::vector<double> random_start(std::int64_t n, int block, const std::vector<char>& has_mass) {
  std::vector<double> x(static_cast<std::size_t>(n) * block);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < block; ++j) {
      const std::int64_t e = j * n + i;
      std::uint64_t z = 0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(e + 1) + 20261206;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      z ^= z >> 31;
      x[e] = has_mass[i] ? 2.0 * static_cast<double>(z >> 11) * 0x1.0p-53 - 1.0 : 0.0;
    }
  return x;
}

// The search space [X, W, P] with its products K S and M S, kept up to date by the same linear
// combinations as S (only W's products are computed afresh): X in the first `block` vectors,
// then `w` of W and `p` of P.
struct SearchSpace {
  VectorBlock s, ks, ms;
  int w = 0, p = 0;
};

SearchSpace allocate_space(VectorBlocks& blocks, int vectors) {
  return {blocks.allocate(vectors), blocks.allocate(vectors), blocks.allocate(vectors)};
}

// Rayleigh-Ritz on the M-orthonormalised space: the lowest `block` Ritz values and the
// coefficients Y (width x block, column-major) of their vectors in the space's `width` vectors.
struct RitzPairs {
  std::vector<double> lambda, y;
  int width = 0;
};

RitzPairs rayleigh_ritz(VectorBlocks& blocks, const SearchSpace& space, int block) {
  const int c = block + space.w + space.p;
  const VectorBlock s = space.s.part(0, c);
  int q = 0;
  const std::vector<double> b = svqb(blocks.inner(s, space.ms.part(0, c)), c, q);
  if (q < block) throw EigenFailure("LOBPCG: the search space collapsed below the block size");
  const std::vector<double> gk = blocks.inner(s, space.ks.part(0, c));
  std::vector<double> gb(static_cast<std::size_t>(c) * q), h(static_cast<std::size_t>(q) * q);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c, q, c, 1.0, gk.data(), c, b.data(), c, 0.0, gb.data(), c);
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, q, q, c, 1.0, b.data(), c, gb.data(), c, 0.0, h.data(), q);
  symmetrize(h, q);
  const std::vector<double> theta = symmetric_eigen(h, q);
  RitzPairs ritz{{theta.begin(), theta.begin() + block}, std::vector<double>(static_cast<std::size_t>(c) * block), c};
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c, block, q, 1.0, b.data(), c, h.data(), q, 0.0,
              ritz.y.data(), c);
  return ritz;
}

// The vectors `coefficients` (width x count) make of the `width` vectors from `from_first` of S,
// K S and M S, into `first`.. of `to`.
void combine_space(VectorBlocks& blocks, const SearchSpace& from, int from_first, int width,
                   std::span<const double> coefficients, int count, const SearchSpace& to, int first) {
  blocks.combine(from.s.part(from_first, width), coefficients, to.s.part(first, count));
  blocks.combine(from.ks.part(from_first, width), coefficients, to.ks.part(first, count));
  blocks.combine(from.ms.part(from_first, width), coefficients, to.ms.part(first, count));
}

// Which of the block's Ritz pairs meet the tolerance, relative as mode_residuals measures it, or
// the roundoff floor (their residuals K x - lambda M x stay in the run's residual block).
struct Convergence {
  std::vector<char> converged;
  std::vector<double> relative;  // ||K x - lambda M x|| / max(||K x||, lambda_ref ||M x||) per pair
  int modes_converged = 0;       // among the first `modes`
};

// Seconds per step of the iterations, the device's queued work included: the solver's figures
// lobpcg_<step>_s.
struct StepSeconds {
  double start_block = 0, start_products = 0, rayleigh_ritz = 0, combinations = 0, residuals = 0, v_cycles = 0,
         products = 0;
  void record(std::map<std::string, double>& figures) const {
    figures["lobpcg_start_s"] = start_block + start_products;
    figures["lobpcg_start_block_s"] = start_block;  // the random block made and sent to the device
    figures["lobpcg_start_products_s"] = start_products;  // its first products (and the device's first use)
    figures["lobpcg_rayleigh_ritz_s"] = rayleigh_ritz;
    figures["lobpcg_combinations_s"] = combinations;
    figures["lobpcg_residuals_s"] = residuals;
    figures["lobpcg_v_cycles_s"] = v_cycles;
    figures["lobpcg_products_s"] = products;
  }
};

// One LOBPCG run on the device of options.device: the blocks and their products with K and M
// there, the V-cycle on the same back-end, the small dense problems on the host.
class LobpcgRun {
 public:
  // `since_call`: started when lobpcg() was called (the figure lobpcg_before_setup_s: the checks,
  // the norms and the device's back-ends).
  LobpcgRun(const CsrMatrix& k, const CsrMatrix& m, const NodeLayout& nodes, const AmgOptions& amg,
            const EigenOptions& options, int block, EigenResult& result, const Stopwatch& since_call);
  // Iterates until the first `modes` pairs converge, then puts them in the result.
  void solve(const std::vector<char>& has_mass);

 private:
  Convergence check(const SearchSpace& space, const std::vector<double>& lambda);
  void refresh_products(const SearchSpace& space) const;
  void new_directions(const RitzPairs& ritz, const std::vector<int>& active);
  void precondition(const std::vector<int>& active);
  void report(int iteration, int converged, double& next_report, const Stopwatch& since_start) const;
  void timed(double& total, const std::function<void()>& work) { total += blocks_.seconds_for(work); }

  const EigenOptions& options_;
  EigenResult& result_;
  const int modes_, block_;
  const RowSumNorms norms_;
  VectorBlocks blocks_;
  std::unique_ptr<kernels::SparseMatrix> k_, m_;
  std::unique_ptr<amg::VCycle> cycle_;
  std::unique_ptr<kernels::SparseVector> mask_, scratch_;
  VectorBlock r_;
  SearchSpace current_, next_;
  StepSeconds steps_;
};

LobpcgRun::LobpcgRun(const CsrMatrix& k, const CsrMatrix& m, const NodeLayout& nodes, const AmgOptions& amg,
                     const EigenOptions& options, int block, EigenResult& result, const Stopwatch& since_call)
    : options_(options),
      result_(result),
      modes_(options.modes),
      block_(block),
      norms_(row_sum_norms(k, m)),
      blocks_(name_of(options.device), k.rows, 3 * block) {
  result.setup.figures["lobpcg_before_setup_s"] = since_call.seconds();
  const Stopwatch setup;
  Stopwatch step;
  // On a device, K and M travel there while the host sets the V-cycle up (the copies take a few
  // cores of their own); on the host they are made after it, not beside its threads.
  const auto device_copy = [this](const CsrMatrix& a) {
    return std::async(blocks_.sparse().on_host() ? std::launch::deferred : std::launch::async,
                      [this, matrix = &a] { return blocks_.sparse().rows_matrix(*matrix); });
  };
  auto k_copy = device_copy(k), m_copy = device_copy(m);
  {
    const CsrMatrix shifted = shifted_matrix(k, m, result.shift);  // freed once the V-cycle holds its copy
    result.setup.figures["lobpcg_shifted_matrix_s"] = step.restart();
    cycle_ = shifted_v_cycle(blocks_.sparse(), shifted, nodes, amg, result.shift);
    result.setup.figures["lobpcg_v_cycle_setup_s"] = step.restart();
  }
  k_ = k_copy.get();
  m_ = m_copy.get();
  result.setup.figures["lobpcg_matrices_to_device_s"] = step.restart();  // what is left of the copies
  current_ = allocate_space(blocks_, 3 * block);
  next_ = allocate_space(blocks_, 3 * block);
  r_ = blocks_.allocate(block);
  mask_ = blocks_.sparse().vector(k.rows);
  scratch_ = blocks_.sparse().vector(k.rows);
  result.setup.time_setup_s = setup.seconds();
  result.setup.memory_bytes = cycle_->bytes() + k_->device_bytes() + m_->device_bytes() +
                              (6 * 3 + 1) * static_cast<std::size_t>(block) * k.rows * sizeof(double);
  for (const auto& [name, value] : cycle_->figures()) result.setup.figures[name] = value;
}

Convergence LobpcgRun::check(const SearchSpace& space, const std::vector<double>& lambda) {
  // R = K X - M X Lambda and the squared norms vector by vector: the diagonals alone, where
  // Gram matrices of the block would cost block times the arithmetic.
  const VectorBlock x = space.s.part(0, block_), kx = space.ks.part(0, block_), mx = space.ms.part(0, block_);
  blocks_.subtract_scaled(kx, lambda, mx, r_);
  const auto xx = blocks_.column_dots(x, x), kk = blocks_.column_dots(kx, kx), mm = blocks_.column_dots(mx, mx),
             rr = blocks_.column_dots(r_, r_);
  double reference = std::abs(result_.shift);
  for (int j = 0; j < modes_; ++j) reference = std::max(reference, std::abs(lambda[j]));
  Convergence out{std::vector<char>(block_, 0), std::vector<double>(block_, 0.0), 0};
  for (int j = 0; j < block_; ++j) {
    const double scale = std::max(std::sqrt(kk[j]), reference * std::sqrt(mm[j]));
    const double attainable =
        1e3 * std::numeric_limits<double>::epsilon() * (norms_.k + std::abs(lambda[j]) * norms_.m) * std::sqrt(xx[j]);
    if (scale > 0) out.relative[j] = std::sqrt(rr[j]) / scale;
    out.converged[j] = std::sqrt(rr[j]) <= std::max(options_.tolerance * scale, attainable);
    if (j < modes_ && out.converged[j]) ++out.modes_converged;
  }
  return out;
}

// K X and M X by products, in place of their running combinations (which gather roundoff).
void LobpcgRun::refresh_products(const SearchSpace& space) const {
  blocks_.multiply(*k_, space.s.part(0, block_), space.ks.part(0, block_));
  blocks_.multiply(*m_, space.s.part(0, block_), space.ms.part(0, block_));
}

// The new P of the active pairs into next_: the part of their Ritz vectors that came from W and
// P (their coefficients' rows below X's, over those vectors alone). None after the first step,
// whose space is X alone.
void LobpcgRun::new_directions(const RitzPairs& ritz, const std::vector<int>& active) {
  const int a = static_cast<int>(active.size());
  next_.p = ritz.width > block_ ? a : 0;
  if (next_.p == 0) return;
  const int rest = ritz.width - block_;
  std::vector<double> z(static_cast<std::size_t>(rest) * a);
  for (int col = 0; col < a; ++col)
    std::copy_n(&ritz.y[static_cast<std::size_t>(active[col]) * ritz.width + block_], rest,
                &z[static_cast<std::size_t>(col) * rest]);
  combine_space(blocks_, current_, block_, rest, z, a, next_, block_ + a);
}

// W = the V-cycle on the active pairs' residuals, zero where there is no mass, into next_ with
// its products.
void LobpcgRun::precondition(const std::vector<int>& active) {
  const int a = static_cast<int>(active.size());
  const auto& sparse = blocks_.sparse();
  timed(steps_.v_cycles, [&] {
    for (int col = 0; col < a; ++col) {
      const auto w = blocks_.vector(next_.s, block_ + col);
      cycle_->apply(*blocks_.vector(r_, active[col]), *w);
      sparse.diagonal_step(1.0, *mask_, *w, 0.0, *scratch_, 0.0, *w);
    }
  });
  result_.solves += a;
  result_.time_solve_s = steps_.v_cycles;
  next_.w = a;
  timed(steps_.products, [&] {
    blocks_.multiply(*k_, next_.s.part(block_, a), next_.ks.part(block_, a));
    blocks_.multiply(*m_, next_.s.part(block_, a), next_.ms.part(block_, a));
  });
}

void LobpcgRun::report(int iteration, int converged, double& next_report, const Stopwatch& since_start) const {
  if (!options_.progress || since_start.seconds() < next_report) return;
  next_report = since_start.seconds() + 2.0;
  options_.progress("iteration " + std::to_string(iteration + 1) + ": " + std::to_string(converged) + " of " +
                    std::to_string(modes_) + " modes converged");
}

void LobpcgRun::solve(const std::vector<char>& has_mass) {
  const std::int64_t n = blocks_.length();
  timed(steps_.start_block, [&] {
    mask_->upload(std::vector<double>(has_mass.begin(), has_mass.end()));
    blocks_.upload(random_start(n, block_, has_mass), current_.s.part(0, block_));
  });
  timed(steps_.start_products, [&] { refresh_products(current_); });
  const Stopwatch since_start;
  double next_report = 2.0;
  for (int iteration = 0;; ++iteration) {
    RitzPairs ritz;
    timed(steps_.rayleigh_ritz, [&] { ritz = rayleigh_ritz(blocks_, current_, block_); });
    timed(steps_.combinations, [&] { combine_space(blocks_, current_, 0, ritz.width, ritz.y, block_, next_, 0); });
    Convergence state;
    timed(steps_.residuals, [&] { state = check(next_, ritz.lambda); });
    if (state.modes_converged == modes_) {
      // Converged on the running products: confirmed on true ones, or go on from those.
      timed(steps_.products, [&] { refresh_products(next_); });
      timed(steps_.residuals, [&] { state = check(next_, ritz.lambda); });
    }
    result_.restarts = iteration;
    if (state.modes_converged == modes_) {
      steps_.record(result_.setup.figures);
      result_.eigenvalues.assign(ritz.lambda.begin(), ritz.lambda.begin() + modes_);
      result_.residuals.assign(state.relative.begin(), state.relative.begin() + modes_);
      result_.vectors.resize(static_cast<std::size_t>(modes_) * n);
      blocks_.download(next_.s.part(0, modes_), result_.vectors);  // M-orthonormal Ritz vectors, ascending
      return;
    }
    if (iteration == options_.max_restarts) {
      std::ostringstream text;
      text << "LOBPCG did not converge: " << state.modes_converged << " of " << modes_ << " modes within "
           << options_.tolerance << " after " << iteration << " iterations; a better preconditioner (solver.amg) may help";
      throw EigenFailure(text.str());
    }
    report(iteration, state.modes_converged, next_report, since_start);
    // Soft locking: converged pairs stay in X (and in every Rayleigh-Ritz step) but get no new
    // directions, which saves their V-cycles and products.
    std::vector<int> active;
    for (int j = 0; j < block_; ++j)
      if (!state.converged[j]) active.push_back(j);
    timed(steps_.combinations, [&] { new_directions(ritz, active); });
    precondition(active);
    std::swap(current_, next_);
  }
}

}  // namespace

EigenResult lobpcg(const CsrMatrix& k, const CsrMatrix& m, NodeLayout nodes, const AmgOptions& amg,
                   const EigenOptions& options) {
  if (m.rows != k.rows) throw std::invalid_argument("lobpcg: K and M differ in size");
  if (options.modes < 1) throw std::invalid_argument("lobpcg: modes must be at least 1");
  const Stopwatch whole;
  const std::vector<char> has_mass = equations_with_mass(m);
  EigenResult result;
  result.block_size = block_size(options.modes, std::count(has_mass.begin(), has_mass.end(), 1));
  result.subspace = 3 * result.block_size;
  result.shift = options.shift ? *options.shift : default_shift(k, m);
  LobpcgRun run(k, m, nodes, amg, options, result.block_size, result, whole);
  run.solve(has_mass);
  // Beside the set-up and the steps: what the whole call took (the rest is the checks before
  // the set-up and the answer's download).
  result.setup.figures["lobpcg_total_s"] = whole.seconds();
  return result;
}

}  // namespace fem::eigen

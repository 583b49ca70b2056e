// Shift-invert block Lanczos, LOBPCG and SLEPc against LAPACK's dense dsygv on generalized problems: a
// generic spectrum, repeated eigenvalues, a singular K with Dirichlet-fixed equations, and the
// Lanczos answer the same through a direct and an iterative linear solver.
#include <doctest/doctest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "fem/config.hpp"
#include "kernels/compute_backend.hpp"
#include "solvers/eigen/lobpcg.hpp"
#include "solvers/eigen/mode_residuals.hpp"
#include "solvers/eigen/shift_invert_lanczos.hpp"
#include "solvers/eigen_table.hpp"

namespace {

using fem::CsrMatrix;

// A dense n x n matrix (row-major) as CSR, both triangles, exact zeros left out.
CsrMatrix to_csr(const std::vector<double>& a, int n) {
  CsrMatrix m;
  m.rows = n;
  m.row_ptr.assign(1, 0);
  std::vector<std::int32_t> cols;
  std::vector<double> vals;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      if (a[i * n + j] != 0) {
        cols.push_back(j);
        vals.push_back(a[i * n + j]);
      }
    m.row_ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  m.col.assign(cols.begin(), cols.end());
  m.val.assign(vals.begin(), vals.end());
  return m;
}

// Grid of nx x ny points: K the 5-point Laplacian (`neumann`: diagonal = degree, singular with
// the constants as null space; else 4) plus `perturb` times a random positive diagonal; M a
// positive definite "mass" coupling neighbours.
struct Pencil {
  int n = 0;
  std::vector<double> k, m;
};
Pencil grid_pencil(int nx, int ny, bool neumann, double perturb, bool identity_mass) {
  Pencil p;
  p.n = nx * ny;
  p.k.assign(p.n * p.n, 0.0);
  p.m.assign(p.n * p.n, 0.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const int i = y * nx + x;
      int degree = 0;
      const auto link = [&](int xx, int yy) {
        if (xx < 0 || yy < 0 || xx >= nx || yy >= ny) return;
        const int j = yy * nx + xx;
        p.k[i * p.n + j] = -1;
        if (!identity_mass) p.m[i * p.n + j] = 1.0 / 8;
        ++degree;
      };
      link(x - 1, y), link(x + 1, y), link(x, y - 1), link(x, y + 1);
      p.k[i * p.n + i] = (neumann ? degree : 4) + perturb * unit(random);
      p.m[i * p.n + i] = 1;
    }
  return p;
}

// The lowest `count` eigenvalues of the pencil restricted to the equations not in `fixed`.
std::vector<double> dense_reference(const Pencil& p, const std::vector<int>& fixed, int count) {
  std::vector<int> keep;
  for (int i = 0; i < p.n; ++i)
    if (std::find(fixed.begin(), fixed.end(), i) == fixed.end()) keep.push_back(i);
  const int r = static_cast<int>(keep.size());
  std::vector<double> a(r * r), b(r * r), w(r);
  for (int i = 0; i < r; ++i)
    for (int j = 0; j < r; ++j) {
      a[i * r + j] = p.k[keep[i] * p.n + keep[j]];
      b[i * r + j] = p.m[keep[i] * p.n + keep[j]];
    }
  REQUIRE(LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'N', 'U', r, a.data(), r, b.data(), r, w.data()) == 0);
  return {w.begin(), w.begin() + count};
}

// Dirichlet conditions as fem applies them: rows and columns cleared, K keeps its diagonal, M none.
void fix(Pencil& p, const std::vector<int>& fixed) {
  for (int f : fixed)
    for (int j = 0; j < p.n; ++j) {
      if (j != f) p.k[f * p.n + j] = p.k[j * p.n + f] = 0;
      p.m[f * p.n + j] = p.m[j * p.n + f] = 0;
    }
}

// The result against dsygv: eigenvalues, recomputed residuals, M-orthonormal vectors that are
// zero on the fixed equations.
void check_result(const fem::eigen::EigenResult& result, const Pencil& p, const std::vector<int>& fixed, int modes) {
  const CsrMatrix k = to_csr(p.k, p.n), m = to_csr(p.m, p.n);
  const auto reference = dense_reference(p, fixed, modes);
  REQUIRE(result.eigenvalues.size() == reference.size());
  const double scale = std::max(std::abs(reference.back()), 1e-300);
  for (std::size_t i = 0; i < reference.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(result.eigenvalues[i] - reference[i]) <= 1e-9 * scale);
  }
  const auto residuals = fem::eigen::mode_residuals(k, m, result.eigenvalues, result.vectors, result.shift);
  for (double r : residuals) CHECK(r < 1e-8);
  // A method's own residuals (LOBPCG's, which the modal run reports instead) are the same measure.
  if (!result.residuals.empty()) {
    REQUIRE(result.residuals.size() == residuals.size());
    for (std::size_t i = 0; i < residuals.size(); ++i) {
      CAPTURE(i);
      CHECK(result.residuals[i] == doctest::Approx(residuals[i]).epsilon(1e-3).scale(1e-10));
    }
  }
  const auto n = static_cast<std::size_t>(p.n);
  for (std::size_t a = 0; a < reference.size(); ++a) {
    for (int f : fixed) CHECK(result.vectors[a * n + f] == 0.0);
    for (std::size_t b = 0; b <= a; ++b) {
      double mab = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) mab += result.vectors[a * n + i] * p.m[i * n + j] * result.vectors[b * n + j];
      CHECK(mab == doctest::Approx(a == b ? 1.0 : 0.0).epsilon(1e-9));
    }
  }
}

fem::eigen::EigenResult check_against_reference(const Pencil& p, const std::vector<int>& fixed,
                                                fem::eigen::EigenOptions options, const char* method = "band-cholesky") {
  fem::SolverOptions linear;
  linear.method = fem::parse_choice<fem::SolverMethodId>(method).value();
  linear.tolerance = 1e-13;
  auto solver = fem::make_solver(linear);
  const auto result = fem::eigen::shift_invert_lanczos(to_csr(p.k, p.n), to_csr(p.m, p.n), *solver, {}, options);
  check_result(result, p, fixed, options.modes);
  return result;
}

// A solver that prepares natively: one dense Cholesky factorisation, then blocks of solves with it.
class DenseCholesky final : public fem::LinearSolver {
 public:
  int prepares = 0, blocks = 0;
  std::unique_ptr<fem::PreparedSolver> prepare(const CsrMatrix& a, fem::NodeLayout) override {
    ++prepares;
    return std::make_unique<Prepared>(a, blocks);
  }

 private:
  class Prepared final : public fem::PreparedSolver {
   public:
    Prepared(const CsrMatrix& a, int& blocks) : n_(static_cast<int>(a.rows)), factor_(n_ * n_, 0.0), blocks_(blocks) {
      for (int i = 0; i < n_; ++i)
        for (auto q = a.row_ptr[i]; q < a.row_ptr[i + 1]; ++q) factor_[i * n_ + a.col[q]] = a.val[q];
      if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n_, factor_.data(), n_) != 0) throw fem::SolveFailure("not positive definite");
    }
    fem::SolveReport solve(std::span<const double> rhs, std::span<double> solution, int count) override {
      ++blocks_;
      // The right-hand sides one after another are column-major n x count; the row-major lower
      // factor is the column-major upper one.
      std::copy(rhs.begin(), rhs.end(), solution.begin());
      REQUIRE(LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'U', n_, count, factor_.data(), n_, solution.data(), n_) == 0);
      return {};
    }

   private:
    int n_;
    std::vector<double> factor_;
    int& blocks_;
  };
};

}  // namespace

TEST_CASE("shift-invert Lanczos factorises K - sigma M once through LinearSolver::prepare") {
  const Pencil p = grid_pencil(12, 10, false, 0.5, false);
  fem::eigen::EigenOptions options;
  options.modes = 8;
  DenseCholesky solver;
  const auto result = fem::eigen::shift_invert_lanczos(to_csr(p.k, p.n), to_csr(p.m, p.n), solver, {}, options);
  check_result(result, p, {}, options.modes);
  CHECK(solver.prepares == 1);
  CHECK(result.reuses_preparation);
  CHECK(static_cast<std::int64_t>(solver.blocks) * result.block_size == result.solves);
}

TEST_CASE("shift-invert Lanczos matches dense dsygv on a generic generalized problem") {
  const Pencil p = grid_pencil(12, 10, false, 0.5, false);
  fem::eigen::EigenOptions options;
  options.modes = 8;
  options.shift = 0.0;
  check_against_reference(p, {}, options);
  SUBCASE("with a small subspace: many thick restarts") {
    options.block_size = 1;
    options.subspace = 14;
    CHECK(check_against_reference(p, {}, options).restarts > 3);
  }
}

TEST_CASE("shift-invert Lanczos finds repeated eigenvalues (a square grid's symmetric pairs)") {
  const Pencil p = grid_pencil(10, 10, false, 0.0, true);
  fem::eigen::EigenOptions options;
  options.modes = 10;
  check_against_reference(p, {}, options);
}

TEST_CASE("singular K (free body) with the default negative shift, and fixed equations left out") {
  Pencil p = grid_pencil(9, 8, true, 0.0, false);
  SUBCASE("free: the zero eigenvalue first") {
    fem::eigen::EigenOptions options;
    options.modes = 6;
    check_against_reference(p, {}, options);
  }
  SUBCASE("some equations fixed: no spurious modes from them") {
    const std::vector<int> fixed = {0, 1, 2, 9, 18, 40};
    fix(p, fixed);
    fem::eigen::EigenOptions options;
    options.modes = 6;
    check_against_reference(p, fixed, options);
  }
}

TEST_CASE("the same modes through an iterative linear solver") {
  const Pencil p = grid_pencil(12, 10, false, 0.5, false);
  fem::eigen::EigenOptions options;
  options.modes = 5;
  options.shift = 0.0;
  check_against_reference(p, {}, options, "cg");
}

TEST_CASE("LOBPCG with AMG matches dense dsygv: generic, repeated, singular with fixed equations") {
  fem::eigen::EigenOptions options;
  options.modes = 6;
  options.tolerance = 1e-10;
  SUBCASE("generic") {
    const Pencil p = grid_pencil(12, 10, false, 0.5, false);
    check_result(fem::eigen::lobpcg(to_csr(p.k, p.n), to_csr(p.m, p.n), {}, {}, options), p, {}, options.modes);
  }
  SUBCASE("repeated") {
    const Pencil p = grid_pencil(10, 10, false, 0.0, true);
    check_result(fem::eigen::lobpcg(to_csr(p.k, p.n), to_csr(p.m, p.n), {}, {}, options), p, {}, options.modes);
  }
  SUBCASE("singular K, some equations fixed") {
    Pencil p = grid_pencil(9, 8, true, 0.0, false);
    const std::vector<int> fixed = {0, 1, 2, 9, 18, 40};
    fix(p, fixed);
    check_result(fem::eigen::lobpcg(to_csr(p.k, p.n), to_csr(p.m, p.n), {}, {}, options), p, fixed, options.modes);
  }
}

TEST_CASE("LOBPCG says where it cannot run") {
  const Pencil p = grid_pencil(6, 5, false, 0.5, false);
  const CsrMatrix k = to_csr(p.k, p.n), m = to_csr(p.m, p.n);
  fem::eigen::EigenOptions options;
  options.modes = 2;
  options.device = fem::Device::OpenCl;
  CHECK_THROWS_WITH_AS(fem::eigen::lobpcg(k, m, {}, {}, options), doctest::Contains("LOBPCG runs on cpu and cuda"),
                       std::invalid_argument);
  options.device = fem::Device::Cuda;
  if (!fem::kernels::unavailable_reason(*fem::kernels::find_compute_backend("cuda")).empty())
    CHECK_THROWS_WITH_AS(fem::eigen::lobpcg(k, m, {}, {}, options), doctest::Contains("LOBPCG on cuda: "),
                         fem::SolverUnavailable);
}

TEST_CASE("shift-invert Lanczos says why it cannot answer") {
  const Pencil p = grid_pencil(6, 5, false, 0.5, false);
  const CsrMatrix k = to_csr(p.k, p.n), m = to_csr(p.m, p.n);
  fem::SolverOptions linear;
  linear.method = fem::SolverMethodId::BandCholesky;
  auto solver = fem::make_solver(linear);
  fem::eigen::EigenOptions options;
  SUBCASE("more modes than equations with mass") {
    options.modes = 30;
    CHECK_THROWS_WITH_AS(fem::eigen::shift_invert_lanczos(k, m, *solver, {}, options),
                         doctest::Contains("only 30 equations carry mass"), fem::eigen::EigenFailure);
  }
  SUBCASE("a shift above eigenvalues: K - sigma M indefinite") {
    options.modes = 3;
    options.shift = 6.0;
    CHECK_THROWS_WITH_AS(fem::eigen::shift_invert_lanczos(k, m, *solver, {}, options),
                         doctest::Contains("lower analysis.shift"), fem::eigen::EigenFailure);
  }
  SUBCASE("too few restarts") {
    options.modes = 6;
    options.block_size = 1;
    options.subspace = 8;
    options.max_restarts = 1;
    CHECK_THROWS_WITH_AS(fem::eigen::shift_invert_lanczos(k, m, *solver, {}, options),
                         doctest::Contains("did not converge"), fem::eigen::EigenFailure);
  }
}

TEST_CASE("SLEPc's Krylov-Schur with MUMPS shift-invert matches dense dsygv, or is unavailable without it") {
  fem::eigen::EigenOptions options;
  options.modes = 6;
  const Pencil generic = grid_pencil(12, 10, false, 0.5, false);
  if (!FEM_WITH_SLEPC) {
    CHECK_THROWS_AS(fem::slepc_eigen(to_csr(generic.k, generic.n), to_csr(generic.m, generic.n), options),
                    fem::SolverUnavailable);
    return;
  }
  SUBCASE("generic") {
    check_result(fem::slepc_eigen(to_csr(generic.k, generic.n), to_csr(generic.m, generic.n), options), generic, {},
                 options.modes);
  }
  SUBCASE("repeated: M-orthonormal within a cluster") {
    const Pencil p = grid_pencil(10, 10, false, 0.0, true);
    options.modes = 10;
    check_result(fem::slepc_eigen(to_csr(p.k, p.n), to_csr(p.m, p.n), options), p, {}, options.modes);
  }
  SUBCASE("singular K, some equations fixed: left out, zeros in the vectors") {
    Pencil p = grid_pencil(9, 8, true, 0.0, false);
    const std::vector<int> fixed = {0, 1, 2, 9, 18, 40};
    fix(p, fixed);
    const auto result = fem::slepc_eigen(to_csr(p.k, p.n), to_csr(p.m, p.n), options);
    check_result(result, p, fixed, options.modes);
    CHECK(result.solves > 0);
    CHECK(result.setup.figures.count("factor_bytes") == 1);
  }
  SUBCASE("more modes than equations with mass") {
    options.modes = 200;
    CHECK_THROWS_WITH_AS(fem::slepc_eigen(to_csr(generic.k, generic.n), to_csr(generic.m, generic.n), options),
                         doctest::Contains("only 120 equations carry mass"), fem::eigen::EigenFailure);
  }
}

TEST_CASE("shift-invert Lanczos when its basis fills the space with mass: new blocks of rounding noise") {
  // 12 equations, 4 without mass (held): a subspace of all 8 others leaves the residual block
  // with nothing but rounding in it, or in the massless equations, before every restart.
  Pencil p = grid_pencil(4, 3, false, 0.5, false);
  const std::vector<int> held = {0, 5, 6, 11};
  fix(p, held);
  fem::eigen::EigenOptions options;
  for (const int modes : {2, 3, 5}) {
    CAPTURE(modes);
    options.modes = modes;
    options.block_size = 3;
    check_against_reference(p, held, options);
  }
  SUBCASE("and on a pencil whose eigenvalues are all one: OP V lies in the span of V") {
    Pencil flat = grid_pencil(4, 4, false, 0.0, true);
    for (int i = 0; i < flat.n; ++i)
      for (int j = 0; j < flat.n; ++j) flat.k[i * flat.n + j] = i == j ? 2.0 : 0.0;
    options.modes = 4;
    options.block_size = 2;
    check_against_reference(flat, {}, options);
  }
}

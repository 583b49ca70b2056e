// Prepared solvers (LinearSolver::prepare): every method with its own prepared path, on each
// device this build has, factorises or sets up once and then solves three right-hand sides in one
// call, each as a fresh one-at-a-time solve would and as band Cholesky does; iterative ones start
// from what the solution holds; bad sizes are refused. Device rows say so and pass where there
// is no device.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "multifrontal/sparse_test_matrices.hpp"
#include "solvers/linear_solver.hpp"
#include "tests/support/vectors.hpp"

using namespace fem;
using testing::max_rel_diff;
using testing::random_vector;

namespace {

constexpr int kCount = 3;

struct Row {
  std::string method, device;
  Preconditioner preconditioner = Preconditioner::Jacobi;
  Precision precision = Precision::Double;
  const char* preparations;  // the figure that counts the factorisations or set-ups
  bool iterative() const { return method == "cg" || method == "bicgstab"; }
};

// Every row with a prepared path that this build has.
std::vector<Row> rows() {
  const auto available = available_solvers();
  std::vector<Row> all;
  for (const std::string device : {"cpu", "cuda"})
    for (const Row& row : std::vector<Row>{{"band-cholesky", device, {}, Precision::Double, "factorisations"},
                                           {"band-cholesky", device, {}, Precision::Mixed, "factorisations"},
                                           {"multifrontal", device, {}, Precision::Double, "factorisations"},
                                           {"multifrontal", device, {}, Precision::Mixed, "factorisations"},
                                           {"cg", device, Preconditioner::Jacobi, {}, "setups"},
                                           {"cg", device, Preconditioner::Amg, {}, "setups"},
                                           {"bicgstab", device, Preconditioner::Jacobi, {}, "setups"}})
      if (std::find(available.begin(), available.end(), row.method + ":" + device) != available.end())
        all.push_back(row);
  return all;
}

SolverOptions options_of(const Row& row) {
  SolverOptions options;
  options.method = parse_choice<SolverMethodId>(row.method).value();
  options.device = parse_choice<Device>(row.device).value();
  options.preconditioner = row.preconditioner;
  options.precision = row.precision;
  options.tolerance = 1e-12;
  return options;
}

// The row's solver; none (with a message) for a device row without its device.
std::unique_ptr<LinearSolver> solver_of(const Row& row) {
  try {
    return make_solver(options_of(row));
  } catch (const SolverUnavailable& e) {
    if (row.device == "cpu") throw;
    MESSAGE("skipped: " << std::string(e.what()));
    return nullptr;
  }
}

// An FE-like SPD system of 3,240 equations (random element blocks on a 12 x 10 x 9 grid of
// 3-equation nodes, long-range couplings, one node held) and three unrelated right-hand sides.
struct Problem {
  CsrMatrix a = test::random_fe_like_matrix(12, 10, 9, 3, 37, {0, 1, 2});
  NodeLayout nodes{3, 3, {}};
  std::vector<double> rhs;  // kCount right-hand sides one after another
  Problem() {
    for (unsigned k = 0; k < kCount; ++k) {
      const auto b = random_vector(a.rows, 100 + k);
      rhs.insert(rhs.end(), b.begin(), b.end());
    }
  }
  std::vector<double> part(const std::vector<double>& block, int k) const {
    return {block.begin() + k * a.rows, block.begin() + (k + 1) * a.rows};
  }
};

const Problem& problem() {
  static const Problem p;
  return p;
}

// ||b - A x|| / ||b||, computed here.
double relative_residual(const CsrMatrix& a, const std::vector<double>& b, const std::vector<double>& x) {
  double rr = 0, bb = 0;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    double r = b[i];
    for (auto e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) r -= a.val[e] * x[a.col[e]];
    rr += r * r;
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

// Each right-hand side solved on its own by a fresh band-Cholesky solver: the reference.
const std::vector<double>& reference() {
  static const std::vector<double> x = [] {
    const Problem& p = problem();
    std::vector<double> all;
    for (int k = 0; k < kCount; ++k) {
      const auto b = p.part(p.rhs, k);
      std::vector<double> one(p.a.rows, 0.0);
      make_solver(options_of({"band-cholesky", "cpu", {}, Precision::Double, ""}))
          ->solve(AssembledSystem{p.a, b, p.nodes}, one);
      all.insert(all.end(), one.begin(), one.end());
    }
    return all;
  }();
  return x;
}

}  // namespace

TEST_CASE("a prepared solver factorises or sets up once and solves several right-hand sides in one call") {
  const Problem& p = problem();
  for (const Row& row : rows()) {
    CAPTURE(row.method);
    CAPTURE(row.device);
    const std::string preconditioner = name_of(row.preconditioner), precision = name_of(row.precision);
    CAPTURE(preconditioner);
    CAPTURE(precision);
    const auto solver = solver_of(row);
    if (!solver) continue;
    const auto prepared = solver->prepare(p.a, p.nodes);
    CHECK(prepared->reuses_preparation());
    CHECK(prepared->setup().time_setup_s > 0);
    CHECK(prepared->setup().figures.at(row.preparations) == 1);

    std::vector<double> x(p.rhs.size(), 0.0);
    const SolveReport report = prepared->solve(p.rhs, x, kCount);
    CHECK(prepared->setup().figures.at(row.preparations) == 1);  // nothing prepared again
    CHECK(report.time_setup_s == 0);
    const double close = row.iterative() ? 1e-8 : 1e-10;
    for (int k = 0; k < kCount; ++k) {
      CAPTURE(k);
      const auto b = p.part(p.rhs, k), xk = p.part(x, k);
      CHECK(relative_residual(p.a, b, xk) < 1e-11);
      CHECK(max_rel_diff(xk, p.part(reference(), k)) < close);
      // The same right-hand side alone through a fresh solver's solve().
      std::vector<double> alone(p.a.rows, 0.0);
      const SolveReport single = solver_of(row)->solve(AssembledSystem{p.a, b, p.nodes}, alone);
      CHECK(single.figures.at(row.preparations) == 1);
      CHECK(max_rel_diff(xk, alone) < close);
    }
    if (row.iterative()) {
      CHECK(report.iterations > 0);
      CHECK(report.residual <= 1e-12);
      // Started from the answers they already hold, the right-hand sides take (almost) no steps.
      const SolveReport warm = prepared->solve(p.rhs, x, kCount);
      CHECK(warm.iterations < std::max(2, report.iterations / 4));
    }
  }
}

TEST_CASE("a prepared solve refuses right-hand sides or solutions of the wrong size") {
  const Problem& p = problem();
  for (const Row& row : rows()) {
    CAPTURE(row.method);
    CAPTURE(row.device);
    const auto solver = solver_of(row);
    if (!solver) continue;
    const auto prepared = solver->prepare(p.a, p.nodes);
    std::vector<double> x(p.rhs.size(), 0.0);
    const std::span<const double> rhs(p.rhs);
    CHECK_THROWS_AS(prepared->solve(rhs.first(p.rhs.size() - 1), x, kCount), std::invalid_argument);
    CHECK_THROWS_AS(prepared->solve(rhs, std::span<double>(x).first(p.a.rows), kCount), std::invalid_argument);
    CHECK_THROWS_AS(prepared->solve(rhs.first(0), std::span<double>(x).first(0), 0), std::invalid_argument);
  }
}

TEST_CASE("mixed precision whose refinement stalls in a prepared solve falls back to one FP64 factor for the rest") {
  // No refinement reaches a tolerance of 0: the first right-hand side stalls, the solver factors
  // in FP64 once, and that factor solves it and the others.
  const Problem& p = problem();
  for (const std::string method : {"band-cholesky", "multifrontal"}) {
    CAPTURE(method);
    Row row{method, "cpu", {}, Precision::Mixed, "factorisations"};
    const auto available = available_solvers();
    if (std::find(available.begin(), available.end(), method + ":cpu") == available.end()) continue;
    SolverOptions options = options_of(row);
    options.tolerance = 0;
    const auto solver = make_solver(options);
    const auto prepared = solver->prepare(p.a, p.nodes);
    CHECK(prepared->setup().figures.at("factor_precision_bits") == 32);
    std::vector<double> x(p.rhs.size(), 0.0);
    const SolveReport report = prepared->solve(p.rhs, x, kCount);
    const auto& figures = prepared->setup().figures;
    CHECK(figures.at("factorisations") == 2);
    CHECK(figures.at("precision_fallback") == 1);
    CHECK(figures.at("factor_precision_bits") == 64);
    CHECK(report.time_setup_s > 0);
    for (int k = 0; k < kCount; ++k) CHECK(max_rel_diff(p.part(x, k), p.part(reference(), k)) < 1e-10);
  }
}

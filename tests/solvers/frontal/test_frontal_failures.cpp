// What the frontal solver says about systems it cannot solve, and about bad input.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "solvers/frontal/factor_store.hpp"
#include "solvers/frontal/frontal_solver.hpp"

using namespace fem;

namespace {

// A chain of unit springs between equations i and i + 1, grounded at equation 0, with an
// extra 1 x 1 element of stiffness `extra` on equation `at` (a negative one breaks definiteness).
struct SpringChain {
  std::int64_t n;
  std::int64_t at;
  double extra;
  std::vector<std::int64_t> order;
  std::vector<double> prescribed;

  SpringChain(std::int64_t size, std::int64_t where, double stiffness) : n(size), at(where), extra(stiffness) {
    // element ids: 0 the ground, 1..n-1 the springs (k joins k-1 and k), n the extra element
    for (std::int64_t e = 0; e < n; ++e) {
      order.push_back(e);
      if (e == at) order.push_back(n);
    }
    prescribed.assign(n, std::numeric_limits<double>::quiet_NaN());
  }

  ElementSystem system() const {
    ElementSystem s;
    s.equations = n;
    s.order = order;
    s.prescribed = prescribed;
    const std::int64_t size = n, where = at;
    const double k = extra;
    s.element = [size, where, k](std::int64_t e, ElementContribution& out) {
      if (e == 0 || e == size) {
        out.dofs = {static_cast<std::int32_t>(e == 0 ? 0 : where)};
        out.matrix = {e == 0 ? 1.0 : k};
        out.load = {1.0};
      } else {
        out.dofs = {static_cast<std::int32_t>(e - 1), static_cast<std::int32_t>(e)};
        out.matrix = {1, -1, -1, 1};
        out.load = {0, 0};
      }
    };
    return s;
  }
};

// Assembles the system densely, solves it by Gaussian elimination and returns the largest
// difference to u relative to the largest entry of the dense solution.
double max_difference_to_dense_solve(const ElementSystem& system, const std::vector<double>& u) {
  const auto n = static_cast<std::size_t>(system.equations);
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  ElementContribution e;
  for (auto id : system.order) {
    system.element(id, e);
    for (std::size_t i = 0; i < e.dofs.size(); ++i) {
      a[e.dofs[i]][n] += e.load[i];
      for (std::size_t j = 0; j < e.dofs.size(); ++j) a[e.dofs[i]][e.dofs[j]] += e.matrix[i * e.dofs.size() + j];
    }
  }
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k + 1; i < n; ++i) {
      const double factor = a[i][k] / a[k][k];
      for (std::size_t j = k; j <= n; ++j) a[i][j] -= factor * a[k][j];
    }
  std::vector<double> x(n);
  double worst = 0, largest = 0;
  for (std::size_t i = n; i-- > 0;) {
    double s = a[i][n];
    for (std::size_t j = i + 1; j < n; ++j) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
    worst = std::max(worst, std::abs(x[i] - u[i]));
    largest = std::max(largest, std::abs(x[i]));
  }
  return worst / largest;
}

std::int64_t failing_equation(const ElementSystem& system, std::int64_t block) {
  std::vector<double> u(static_cast<std::size_t>(system.equations));
  try {
    make_frontal_solver({}, {"serial", block})->solve(system, u);
  } catch (const SolveFailure& e) {
    CHECK(std::string(e.what()).find("not positive definite") != std::string::npos);
    return e.equation();
  }
  return -1;
}

}  // namespace

TEST_CASE("frontal names the equation whose pivot is not positive") {
  const SpringChain chain(23, 13, -10.0);
  for (const std::int64_t block : {1, 4, 7, 100}) {
    CAPTURE(block);
    CHECK(failing_equation(chain.system(), block) == 13);
  }
  // the same chain with a positive extra spring solves as dense Gaussian elimination does
  const SpringChain fine(23, 13, 2.0);
  std::vector<double> u(23);
  make_frontal_solver({}, {"serial", 4})->solve(fine.system(), u);
  CHECK(max_difference_to_dense_solve(fine.system(), u) < 1e-12);
}

TEST_CASE("frontal rejects bad input with a message") {
  SpringChain chain(5, 2, 1.0);
  ElementSystem system = chain.system();
  std::vector<double> u(5);
  SUBCASE("a free equation in no element") {
    system.equations = 6;
    chain.prescribed.push_back(std::numeric_limits<double>::quiet_NaN());
    system.prescribed = chain.prescribed;
    u.resize(6);
    try {
      make_frontal_solver({}, {"serial", 2})->solve(system, u);
      FAIL("expected a SolveFailure");
    } catch (const SolveFailure& e) {
      CHECK(e.equation() == 5);
    }
  }
  SUBCASE("an equation number past the system") {
    system.equations = 4;
    system.prescribed = std::span<const double>(chain.prescribed).first(4);
    u.resize(4);
    CHECK_THROWS_AS(make_frontal_solver({}, {"serial", 2})->solve(system, u), std::invalid_argument);
  }
  SUBCASE("a solution of the wrong size") {
    u.resize(3);
    CHECK_THROWS_AS(make_frontal_solver({}, {"serial", 2})->solve(system, u), std::invalid_argument);
  }
  SUBCASE("an unknown back-end") {
    CHECK_THROWS_AS(make_frontal_solver({}, {"no-such-backend", 2}), std::invalid_argument);
  }
}

TEST_CASE("the frontal solver refuses mixed precision by name instead of ignoring it") {
  SolverOptions options;
  options.precision = Precision::Mixed;
  try {
    make_cpu_frontal(options);
    FAIL("mixed precision was accepted");
  } catch (const SolverUnavailable& e) {
    CHECK(std::string(e.what()).find("frontal: precision 'mixed' is not available") != std::string::npos);
  }
}

TEST_CASE("the out-of-core factor file leaves nothing in its folder, even while it is in use") {
  const auto dir = std::filesystem::temp_directory_path() / ("fem-factor-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  {
    const auto store = frontal::make_file_factor_store(dir.string());
    frontal::FactorBlock block{{0, 1}, {2}, std::vector<double>(8, 1.5)};
    store->append(block);
    CHECK(std::filesystem::is_empty(dir));  // a kill now leaves nothing behind
    frontal::FactorBlock back;
    store->read(0, back);
    CHECK(back.panel == block.panel);
    CHECK(back.rest == block.rest);
  }
  std::filesystem::remove_all(dir);
}

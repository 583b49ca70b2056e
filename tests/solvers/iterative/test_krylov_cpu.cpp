// CPU Krylov solvers against dense direct solutions and the project's direct solvers: PCG with
// every preconditioner on FE systems, BiCGSTAB on a non-symmetric system; the failure paths.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/linear_solver.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;

namespace {

// Dense Gaussian elimination with partial pivoting: the reference answer.
std::vector<double> dense_solve(const CsrMatrix& a, std::vector<double> b) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<double> m(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) m[i * n + a.col[k]] = a.val[k];
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(m[r * n + c]) > std::abs(m[p * n + c])) p = r;
    for (std::size_t j = 0; j < n; ++j) std::swap(m[c * n + j], m[p * n + j]);
    std::swap(b[c], b[p]);
    for (std::size_t r = c + 1; r < n; ++r) {
      const double f = m[r * n + c] / m[c * n + c];
      for (std::size_t j = c; j < n; ++j) m[r * n + j] -= f * m[c * n + j];
      b[r] -= f * b[c];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j) s -= m[i * n + j] * x[j];
    x[i] = s / m[i * n + i];
  }
  return x;
}

SolveReport run(const std::string& method, const std::string& preconditioner, const testing::FeSystem& fe,
                std::vector<double>& u, double tolerance = 1e-12, int max_iterations = 0) {
  SolverOptions o;
  o.preconditioner = *parse_choice<Preconditioner>(preconditioner);
  o.tolerance = tolerance;
  o.max_iterations = max_iterations;
  auto solver = method == "cg" ? make_conjugate_gradient(o) : make_bicgstab(o);
  u.assign(fe.rhs.size(), 0.0);
  return solver->solve(AssembledSystem{fe.matrix, fe.rhs}, u);
}

}  // namespace

TEST_CASE("PCG with every preconditioner matches the direct solution of a 3D elasticity box") {
  const auto fe = testing::elasticity_box(8, 4, 4);
  const auto exact = dense_solve(fe.matrix, fe.rhs);
  std::map<std::string, int> iterations;
  for (const char* pc : {"none", "jacobi", "block-jacobi", "ssor"}) {
    CAPTURE(pc);
    std::vector<double> u;
    const auto report = run("cg", pc, fe, u);
    CHECK(testing::relative_difference(u, exact) < 1e-8);
    CHECK(report.residual <= 1e-12);
    CHECK(report.residual_history.size() == static_cast<std::size_t>(report.iterations) + 1);
    CHECK(report.residual_history.front() == doctest::Approx(1.0));
    iterations[pc] = report.iterations;
  }
  // The stronger preconditioners must pay for themselves in iterations.
  CHECK(iterations["ssor"] < iterations["jacobi"]);
  CHECK(iterations["block-jacobi"] <= iterations["jacobi"]);
}

TEST_CASE("PCG on a quadratic (hex27) box and a 2D heat square") {
  for (const auto& fe : {testing::elasticity_box(2, 1, 1, 2), testing::heat_square(9, 7)}) {
    const auto exact = dense_solve(fe.matrix, fe.rhs);
    std::vector<double> u;
    run("cg", "ssor", fe, u);
    CHECK(testing::relative_difference(u, exact) < 1e-8);
  }
}

TEST_CASE("CG on the cpu agrees with the band Cholesky solver on the FE systems of the cases") {
  // The kinds of case: 3D elasticity (hex8, hex27) and 2D heat, the direct answer through the
  // registry as `fem run` gets it.
  for (const auto& fe : {testing::elasticity_box(6, 3, 3), testing::elasticity_box(2, 2, 1, 2),
                         testing::heat_square(20, 15)}) {
    std::vector<double> u;
    run("cg", "jacobi", fe, u, 1e-12);
    SolverOptions o;
    o.method = SolverMethodId::BandCholesky;
    o.device = Device::Cpu;
    std::vector<double> direct(fe.rhs.size(), 0.0);
    make_solver(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, direct);
    CHECK(testing::relative_difference(u, direct) < 1e-8);
  }
}

TEST_CASE("BiCGSTAB solves a non-symmetric system") {
  const auto fe = testing::nonsymmetric_heat_square(8, 6);
  const auto exact = dense_solve(fe.matrix, fe.rhs);
  for (const char* pc : {"none", "jacobi"}) {
    CAPTURE(pc);
    std::vector<double> u;
    const auto report = run("bicgstab", pc, fe, u, 1e-12);
    CHECK(testing::relative_difference(u, exact) < 1e-8);
    CHECK(report.residual_history.size() >= 2);
  }
}

TEST_CASE("Krylov failures are named") {
  const auto fe = testing::elasticity_box(3, 2, 2);
  std::vector<double> u;
  // At the iteration limit the solver stops and says why; the caller judges the answer.
  for (const char* method : {"cg", "bicgstab"}) {
    CAPTURE(method);
    const auto stopped = run(method, "jacobi", fe, u, 1e-14, 3);
    CHECK(stopped.iterations == 3);
    CHECK(stopped.residual > 1e-14);
    CHECK(stopped.unconverged.find("iteration limit of 3") != std::string::npos);
    CHECK(run(method, "jacobi", fe, u, 1e-8).unconverged.empty());
  }
  SolverOptions o;
  o.preconditioner = Preconditioner::Ssor;  // not among BiCGSTAB's
  CHECK_THROWS_WITH_AS(make_bicgstab(o), doctest::Contains("available: none, jacobi, amg"), SolverUnavailable);
  // An indefinite matrix: negate one diagonal entry.
  auto bad = fe;
  for (auto k = bad.matrix.row_ptr[5]; k < bad.matrix.row_ptr[6]; ++k)
    if (bad.matrix.col[k] == 5) bad.matrix.val[k] = -bad.matrix.val[k];
  CHECK_THROWS_AS(run("cg", "jacobi", bad, u), SolveFailure);
  // NaN in the loads or in an off-diagonal entry is named as such, not as indefiniteness.
  auto nan_load = fe;
  nan_load.rhs[7] = std::nan("");
  CHECK_THROWS_WITH_AS(run("cg", "jacobi", nan_load, u), doctest::Contains("NaN or Inf"), SolveFailure);
  CHECK_THROWS_WITH_AS(run("bicgstab", "jacobi", nan_load, u), doctest::Contains("NaN or Inf"), SolveFailure);
  auto nan_entry = fe;
  for (auto k = nan_entry.matrix.row_ptr[4]; k < nan_entry.matrix.row_ptr[5]; ++k)
    if (nan_entry.matrix.col[k] != 4) nan_entry.matrix.val[k] = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(run("cg", "jacobi", nan_entry, u), doctest::Contains("NaN or Inf"), SolveFailure);
}

// band-cholesky:cuda against band-cholesky:cpu (double and mixed precision) on random SPD band
// matrices; skipped without a CUDA device.
#include <doctest/doctest.h>

#include <iostream>

#include "solvers/direct/band_cholesky_solver.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"

using namespace fem;
using band::index_t;
using band_tests::max_rel_diff;

namespace {

// A sparse SPD band matrix with n rows built directly in CSR (a dense n x n would not fit):
// the 5-point Laplacian of an m x (n/m) grid plus a small shift, bandwidth m, rows scaled at random.
CsrMatrix grid_laplacian(index_t n, index_t m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> scale(0.5, 2.0);
  std::vector<double> s(n);
  for (auto& v : s) v = scale(rng);
  CsrMatrix a;
  a.rows = n;
  for (index_t i = 0; i < n; ++i) {
    for (const index_t j : {i - m, i - 1, i, i + 1, i + m}) {
      if (j < 0 || j >= n || ((j == i - 1 || j == i + 1) && std::min(i, j) % m == m - 1)) continue;
      a.col.push_back(static_cast<std::int32_t>(j));
      a.val.push_back((j == i ? 4.001 : -1.0) * s[i] * s[j]);
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

}  // namespace

TEST_CASE("band-cholesky:cuda agrees with the CPU solver") {
  SolverOptions options;
  options.device = "cuda";
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_band_cholesky_cuda(options);
  } catch (const SolverUnavailable& e) {
    std::cout << "skipped: " << e.what() << "\n";
    return;
  }
  for (const auto& [n, m] : {std::pair<index_t, index_t>{1, 1}, {777, 5}, {20011, 130}, {60000, 300}}) {
    CAPTURE(n);
    CAPTURE(m);
    const CsrMatrix a = grid_laplacian(n, m, 5);
    std::vector<double> rhs(n);
    for (index_t i = 0; i < n; ++i) rhs[i] = std::sin(0.37 * i) + 0.1;
    std::vector<double> u_cpu(n), u_gpu(n), u_mixed(n);
    make_band_cholesky_cpu({})->solve(AssembledSystem{a, rhs}, u_cpu);
    const auto report = gpu->solve(AssembledSystem{a, rhs}, u_gpu);
    CHECK(max_rel_diff(u_gpu, u_cpu) < 1e-10);
    CHECK(report.residual < 1e-12);
    options.precision = "mixed";
    const auto mixed = make_band_cholesky_cuda(options)->solve(AssembledSystem{a, rhs}, u_mixed);
    options.precision = "double";
    CHECK(max_rel_diff(u_mixed, u_cpu) < 1e-9);
    CHECK(mixed.residual <= 1e-10);
  }
}

TEST_CASE("band-cholesky:cuda names the failing equation") {
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_band_cholesky_cuda({});
  } catch (const SolverUnavailable&) {
    return;
  }
  CsrMatrix a = grid_laplacian(5000, 70, 9);
  const index_t bad = 3001;
  for (auto k = a.row_ptr[bad]; k < a.row_ptr[bad + 1]; ++k)
    if (a.col[k] == bad) a.val[k] = -a.val[k];
  const std::vector<double> rhs(5000, 1.0);
  std::vector<double> u(5000);
  try {
    gpu->solve(AssembledSystem{a, rhs}, u);
    FAIL("no failure reported");
  } catch (const SolveFailure& e) {
    CHECK(e.equation() == bad);
  }
}

// multifrontal:cuda (the large fronts on the GPU) against band Cholesky: on FE-like matrices with
// every front on the device and with a mix, on a 3D elasticity box whose separators are large
// fronts, in mixed precision, on an indefinite matrix, and on the ready-made cases. Every test
// says so and passes where the build has no CUDA or the machine no device.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "fem/config.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/multifrontal/multifrontal_solver.hpp"
#include "sparse_test_matrices.hpp"
#include "tests/support/vectors.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;
using testing::max_rel_diff;
using testing::random_vector;

namespace {

// The device solver with fronts of `min_flops` and more on the GPU; null (and a message) where
// there is no device.
std::unique_ptr<LinearSolver> device_solver(double min_flops, const std::string& precision = "double") {
  SolverOptions options;
  options.method = SolverMethodId::Multifrontal;
  options.device = Device::Cuda;
  options.precision = *parse_choice<Precision>(precision);
  try {
    return make_multifrontal_cuda_from(options, min_flops);
  } catch (const SolverUnavailable& e) {
    MESSAGE("skipped: " << std::string(e.what()));
    return nullptr;
  }
}

std::vector<double> band_cholesky(const CsrMatrix& a, const std::vector<double>& b) {
  SolverOptions options;
  options.method = SolverMethodId::BandCholesky;
  std::vector<double> x(a.rows, 0.0);
  make_solver(options)->solve(AssembledSystem{a, b}, x);
  return x;
}

SolveReport solve(LinearSolver& solver, const CsrMatrix& a, const std::vector<double>& b, std::vector<double>& x,
                  int dofs_per_node) {
  x.assign(a.rows, 0.0);
  NodeLayout layout;
  layout.dofs_per_node = dofs_per_node;
  return solver.solve(AssembledSystem{a, b, layout}, x);
}

}  // namespace

TEST_CASE("multifrontal:cuda agrees with band Cholesky with every front, or the large ones, on the device") {
  const CsrMatrix a = test::random_fe_like_matrix(9, 8, 7, 3, 5, {0, 1, 2, 3, 5, 77, 400});
  const auto b = random_vector(a.rows, 9);
  const auto truth = band_cholesky(a, b);
  for (const double min_flops : {0.0, 1e5}) {
    CAPTURE(min_flops);
    auto solver = device_solver(min_flops);
    if (!solver) return;
    std::vector<double> x;
    const SolveReport report = solve(*solver, a, b, x, 3);
    CHECK(max_rel_diff(x, truth) < 1e-10);
    CHECK(report.residual < 1e-13);
    const double fronts = report.figures.at("device_fronts"), supernodes = report.figures.at("supernodes");
    if (min_flops == 0) CHECK(fronts == supernodes);
    else CHECK((fronts > 1 && fronts < supernodes));
    CHECK(report.figures.at("device_flops") <= report.figures.at("flops"));
  }
}

TEST_CASE("multifrontal:cuda agrees with band Cholesky on a 3D elasticity box with several large fronts") {
  // Separators of up to 1,323 pivots: fronts of several 512-pivot block rows (the device's
  // elimination steps) above hundreds of update rows.
  const testing::FeSystem system = testing::elasticity_box(20, 20, 20);
  auto solver = device_solver(kDeviceMinFlops / 10);
  if (!solver) return;
  const auto truth = band_cholesky(system.matrix, system.rhs);
  std::vector<double> x;
  const SolveReport report = solve(*solver, system.matrix, system.rhs, x, 3);
  CHECK(max_rel_diff(x, truth) < 1e-10);
  CHECK(report.figures.at("device_fronts") >= 3);
  CHECK(report.figures.at("device_flops") > 0.5 * report.figures.at("flops"));
  MESSAGE("elasticity box: " << report.figures.at("device_fronts") << " of " << report.figures.at("supernodes")
                             << " fronts on the device, " << report.figures.at("device_gflops") << " GFLOP/s there");
}

TEST_CASE("multifrontal:cuda in mixed precision: an FP32 factor on the device refined in FP64") {
  const CsrMatrix a = test::random_fe_like_matrix(8, 7, 6, 3, 21, {0, 1, 2});
  const auto b = random_vector(a.rows, 4);
  auto solver = device_solver(0, "mixed");
  if (!solver) return;
  std::vector<double> x;
  const SolveReport report = solve(*solver, a, b, x, 3);
  CHECK(report.figures.at("factor_precision_bits") == 32);
  CHECK(report.figures.at("precision_fallback") == 0);
  CHECK(report.figures.at("device_fronts") > 0);
  CHECK(max_rel_diff(x, band_cholesky(a, b)) < 1e-9);
}

TEST_CASE("multifrontal:cuda names the equation whose pivot is not positive in a device front") {
  for (std::int32_t bad : {0, 131, 500}) {
    CAPTURE(bad);
    CsrMatrix a = test::random_fe_like_matrix(7, 6, 5, 3, 8);
    for (auto e = a.row_ptr[bad]; e < a.row_ptr[bad + 1]; ++e)
      if (a.col[e] == bad) a.val[e] = -1.0;  // no earlier pivot sees this entry: the failure is here
    auto solver = device_solver(0);
    if (!solver) return;
    std::vector<double> x;
    try {
      solve(*solver, a, random_vector(a.rows, 2), x, 3);
      FAIL("no failure");
    } catch (const SolveFailure& e) {
      CHECK(e.equation() == bad);
    }
  }
}

TEST_CASE("multifrontal:cuda agrees with band Cholesky to 1e-10 on every case") {
  if (!device_solver(kDeviceMinFlops)) return;
  for (const std::string name : {"box", "cantilever", "plate_hole", "bracket", "fin", "heat_box"}) {
    if (!FEM_WITH_GMSH && name != "box") continue;  // the other cases are meshed by Gmsh
    CAPTURE(name);
    study::CompareSettings settings;
    settings.combinations = study::parse_combinations("band-cholesky:cpu,multifrontal:cuda");
    settings.tolerance = 1e-10;
    std::ostringstream log;
    const auto file = std::filesystem::path(FEM_TEST_DATA_DIR) / "cases" / (name + ".yaml");
    const auto result = study::compare_case(file, {}, settings, "fem compare (test)", log);
    REQUIRE(result.rows.size() == 2);
    REQUIRE(result.rows[0].status == study::RowStatus::Ok);
    REQUIRE(result.rows[1].status == study::RowStatus::Ok);
    REQUIRE(result.rows[1].max_rel_diff.has_value());
    CHECK(*result.rows[1].max_rel_diff <= 1e-10);
  }
}

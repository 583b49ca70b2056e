// Eigen methods as rows of `fem compare` and `fem sweep` on a modal case: shift-invert Lanczos on
// each direct factorisation, LOBPCG with AMG and SLEPc (where built) agree to 1e-8 in the lowest
// 10 frequencies on small 3D and 2D elasticity meshes (hex8, hex20, quad8), a free block's six
// rigid-body modes included; the rows carry their frequencies into the CSV, JSON and report;
// rows that do not fit the case are refused, and unavailable ones say so.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/config.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"
#include "fem/study/frequency_agreement.hpp"
#include "fem/study/study_file.hpp"
#include "fem/study/study_writer.hpp"
#include "fem/study/sweep.hpp"
#include "tests/app/app_test_support.hpp"

using namespace fem;
using namespace fem::study;
using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

// Every eigen row a CPU build can have; SLEPc is an unavailable row in a build without it.
const std::string kCpuRows = "lanczos:cpu:band-cholesky,lanczos:cpu:multifrontal,lobpcg:cpu:amg,slepc:cpu";

std::string modal_case(const std::string& mesh, const std::string& physics, const std::string& boundary, int modes) {
  return "title: modal rows\nmesh: " + mesh + "\nphysics: " + physics +
         "\nmaterials:\n  - {E: 200e9, nu: 0.3, density: 7800}\n" + boundary + "analysis: {type: modal, modes: " +
         std::to_string(modes) + "}\nsolver: {method: band-cholesky, renumber: rcm}\n";
}

// A cantilever of trilinear hexahedra, clamped at x = 0.
const std::string kClampedHex8 = modal_case("{box: {size: [2, 0.5, 0.4], divisions: [8, 3, 2]}, element: hex, order: 1}",
                                            "{type: elasticity, model: 3d}", "boundary:\n  - {group: xmin, fix: all}\n", 10);
// A free block of 20-node hexahedra: six rigid-body modes at 0 Hz, then the elastic ones.
const std::string kFreeHex20 = modal_case("{box: {size: [1, 0.6, 0.4], divisions: [3, 2, 2]}, element: hex, order: 2}",
                                          "{type: elasticity, model: 3d}", "", 12);
// A plane-stress plate of quadratic quadrilaterals, clamped on one edge.
const std::string kClampedQuad8 = modal_case("{box: {size: [1, 0.3], divisions: [8, 3]}, element: quad, order: 2}",
                                             "{type: elasticity, model: plane_stress, thickness: 0.01}",
                                             "boundary:\n  - {group: xmin, fix: [x, y]}\n", 10);

StudyResult compare(const fs::path& file, const std::string& rows, double tolerance = 1e-8) {
  CompareSettings settings;
  settings.combinations = parse_combinations(rows);
  settings.tolerance = tolerance;
  std::ostringstream log;
  return compare_case(file, {}, settings, "fem compare (test)", log);
}

// Every available row solved and agrees with the first to 1e-8 in each of the lowest 10
// frequencies, an elastic mode relatively; rigid-body modes (`rigid` of them) lie below 1e-4 of
// the first elastic one.
void check_rows_agree(const StudyResult& result, int modes, int rigid) {
  const StudyRow& reference = result.rows.front();
  REQUIRE(reference.status == RowStatus::Ok);
  CHECK(reference.reference);
  int solved = 0;
  for (const auto& row : result.rows) {
    CAPTURE(row.combination());
    CAPTURE(row.message);
    if (row.status == RowStatus::Unavailable) {
      CHECK((row.solver == "slepc" && !FEM_WITH_SLEPC));
      continue;
    }
    REQUIRE(row.status == RowStatus::Ok);
    ++solved;
    REQUIRE(row.frequencies_hz.size() == static_cast<std::size_t>(modes));
    CHECK(row.residual < 1e-6);
    CHECK(row.time_setup_s.median >= 0);
    CHECK(row.time_solve_s.median > 0);
    REQUIRE(row.agrees.has_value());
    CHECK(*row.agrees);
    CHECK(*row.max_rel_diff <= 1e-8);
    const auto& f = row.frequencies_hz;
    for (int i = 0; i < rigid; ++i) CHECK(f[i] < 1e-4 * f[rigid]);
    for (int i = rigid; i < std::min(modes, kComparedModes); ++i) {
      CAPTURE(i);
      CHECK(std::abs(f[i] - reference.frequencies_hz[i]) <= 1e-8 * reference.frequencies_hz[i]);
    }
    for (int i = 1; i < modes; ++i) CHECK(f[i] >= f[i - 1]);
  }
  CHECK(solved >= 3);
}

}  // namespace

TEST_CASE("every eigen method agrees to 1e-8 on a clamped hex8 cantilever") {
  TempDir dir;
  const auto result = compare(dir.write("hex8.yaml", kClampedHex8), kCpuRows);
  REQUIRE(result.rows.size() == 4);
  check_rows_agree(result, 10, 0);
  // Euler-Bernoulli's first bending frequency about the thin axis, for scale: a coarse mesh of
  // linear hexahedra is stiffer, never softer.
  const double E = 200e9, rho = 7800, L = 2, h = 0.4, beam = 1.875104 * 1.875104 / (2 * M_PI * L * L) *
                                                           std::sqrt(E * h * h / 12 / rho);
  CHECK(result.rows[0].frequencies_hz[0] > beam);
  CHECK(result.rows[0].frequencies_hz[0] < 2 * beam);
}

TEST_CASE("every eigen method agrees to 1e-8 on a free hex20 block, its six rigid-body modes first") {
  TempDir dir;
  const auto result = compare(dir.write("hex20.yaml", kFreeHex20), kCpuRows);
  check_rows_agree(result, 12, 6);
}

TEST_CASE("every eigen method agrees to 1e-8 on a clamped quad8 plate") {
  TempDir dir;
  const auto result = compare(dir.write("quad8.yaml", kClampedQuad8), kCpuRows);
  check_rows_agree(result, 10, 0);
}

TEST_CASE("eigen rows: what a device lacks is unavailable, the outputs hold the frequencies") {
  TempDir dir;
  const auto file = dir.write("hex8.yaml", kClampedHex8);
  const auto result = compare(file, "lanczos:cpu:multifrontal,lanczos:cuda:band-cholesky,lobpcg:opencl,lanczos:cpu:cg", 1e-6);
  REQUIRE(result.rows.size() == 4);
  CHECK(result.rows[0].status == RowStatus::Ok);
  CHECK(result.rows[0].renumber_used == "nested dissection (METIS)");
  CHECK(result.rows[0].factor_bytes.has_value());
  if (!FEM_WITH_CUDA) CHECK(result.rows[1].status == RowStatus::Unavailable);
  CHECK(result.rows[2].status == RowStatus::Unavailable);
  CHECK(result.rows[2].message.find("lobpcg runs on: cpu") != std::string::npos);
  // Lanczos on CG solves K - sigma M to CG's tolerance in every step: it agrees at 1e-6.
  CHECK(result.rows[3].status == RowStatus::Ok);
  CHECK(*result.rows[3].agrees);

  std::ostringstream log;
  write_study(result, dir.path / "study", log);
  const std::string csv = slurp(dir.path / "study/compare.csv");
  CHECK(csv.find("linear_method") != std::string::npos);
  CHECK(csv.find("frequencies_hz") != std::string::npos);
  const auto json = nlohmann::json::parse(slurp(dir.path / "study/compare.json"));
  CHECK(json["rows"][0]["linear_method"] == "multifrontal");
  const auto f = json["rows"][0]["frequencies_hz"].get<std::vector<double>>();
  REQUIRE(f.size() == 10);
  CHECK(f == result.rows[0].frequencies_hz);
  const std::string report = slurp(dir.path / "study/report.md");
  CHECK(report.find("| lanczos:cpu:multifrontal |") != std::string::npos);
  CHECK(report.find("Frequencies [Hz]") != std::string::npos);
  CHECK(log.str().find("frequencies [Hz]") != std::string::npos);
}

TEST_CASE("eigen rows are parsed and must fit the case") {
  CHECK(parse_combination("lanczos:cpu:multifrontal").name() == "lanczos:cpu:multifrontal");
  CHECK(parse_combination("lobpcg:cpu").name() == "lobpcg:cpu:amg");
  CHECK(parse_combination("slepc:cpu").eigen());
  CHECK_FALSE(parse_combination("cg:cpu:amg").eigen());
  CHECK_THROWS_WITH_AS(parse_combination("lanczos:cpu"), doctest::Contains("multifrontal"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("lanczos:cpu:lu"), doctest::Contains("unknown method 'lu'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("lobpcg:cpu:jacobi"), doctest::Contains("amg only"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("slepc:cpu:mumps"), doctest::Contains("nothing after"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("slepc:gpu"), doctest::Contains("unknown device 'gpu'"), std::invalid_argument);

  TempDir dir;
  CHECK_THROWS_WITH_AS(compare(dir.write("modal.yaml", kClampedHex8), "band-cholesky:cpu"),
                       doctest::Contains("is a modal analysis: its rows are eigen methods"), std::invalid_argument);
  const auto static_case = fem::test::cantilever_case("static", "{size: [2, 1, 1], divisions: [4, 2, 2]}", "-1e6", "  method: cg\n");
  CHECK_THROWS_WITH_AS(compare(dir.write("static.yaml", static_case), "lanczos:cpu:multifrontal"),
                       doctest::Contains("is not a modal analysis"), std::invalid_argument);
}

TEST_CASE("frequency agreement: elastic modes relatively, rigid-body modes against the stiffness compared") {
  const std::vector<double> reference = {1e-9, -2e-9, 4e6, 9e6};  // two rigid-body modes, then (2 pi f)^2
  CHECK(frequency_difference(reference, reference) == 0);
  // Rigid-body eigenvalues differing by roundoff do not count ...
  CHECK(frequency_difference({3e-9, 1e-9, 4e6, 9e6}, reference) < 1e-14);
  // ... an elastic frequency off by 1e-6 does: sqrt(4e6 (1 + 2e-6)) is 1e-6 above sqrt(4e6).
  CHECK(frequency_difference({1e-9, -2e-9, 4e6 * (1 + 2e-6), 9e6}, reference) == doctest::Approx(1e-6).epsilon(1e-3));
  // A spurious mode where the reference has a rigid one counts against the largest eigenvalue.
  CHECK(frequency_difference({9e3, -2e-9, 4e6, 9e6}, reference) == doctest::Approx(1e-3).epsilon(1e-6));
  CHECK(std::isinf(frequency_difference({1e-9, 1e-9}, reference)));
}

TEST_CASE("a sweep of eigen rows over growing boxes keeps one reference and fits the growth") {
  TempDir dir;
  dir.write("case.yaml", modal_case("{box: {size: [1, 1, 1], divisions: [2, 2, 2]}, element: hex, order: 1}",
                                    "{type: elasticity, model: 3d}", "boundary:\n  - {group: zmin, fix: all}\n", 6));
  const auto file = dir.write("study.yaml", R"(title: eigen rows
case: case.yaml
solvers: [lanczos:cpu:multifrontal, lobpcg:cpu:amg, lanczos:cpu:band-cholesky]
sizes: [[3, 3, 3], [5, 5, 5], [7, 7, 7]]
tolerance: 1e-8
)");
  const StudyFile study = load_study(file);
  std::ostringstream log;
  const StudyResult result = run_sweep(study, "fem sweep (test)", log);
  REQUIRE(result.rows.size() == 9);
  for (const auto& row : result.rows) {
    CAPTURE(row.combination());
    CAPTURE(row.size);
    REQUIRE(row.status == RowStatus::Ok);
    CHECK(*row.agrees);
    CHECK(row.frequencies_hz.size() == 6);
  }
  CHECK(result.rows[0].reference);
  CHECK(result.rows[3].reference);
  REQUIRE(result.fits.size() == 3);
  // Finer meshes of linear hexahedra are softer: the lowest frequency falls with refinement.
  CHECK(result.rows[6].frequencies_hz[0] < result.rows[0].frequencies_hz[0]);
}

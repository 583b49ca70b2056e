// `fem run` and `fem compare` on a case with load cases: a file per case, the JSON's load_cases
// list with balanced reactions, a console line per case, and a comparison that counts the
// right-hand sides; a case without load cases keeps its one set of outputs.
#include <doctest/doctest.h>

#include <sstream>

#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"
#include "fem/study/study_table.hpp"
#include "tests/app/app_test_support.hpp"

using namespace fem;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A 2 m steel box clamped at xmin, its weight common to every case.
const std::string kBox = R"(title: box with load cases
mesh:
  box: {size: [2, 1, 1], divisions: [4, 2, 2]}
  element: hex
physics: {type: elasticity, model: 3d}
materials:
  - {group: box, E: 200e9, nu: 0.3, density: 7800}
boundary:
  - {group: xmin, fix: all}
loads:
  gravity: [0, 0, -9.81]
solver: {method: band-cholesky}
load_cases:
  - {name: down, boundary: [{group: xmax, traction: [0, 0, -1e6]}]}
  - {name: side, boundary: [{group: xmax, traction: [0, 2e6, 0]}]}
  - {name: weight_only}
)";

}  // namespace

TEST_CASE("a run with load cases writes each case's results and reactions that balance its loads") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBox);
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  const double weight = 7800 * 9.81 * 2;
  REQUIRE(summary["load_cases"].size() == 3);
  const auto& cases = summary["load_cases"];
  CHECK(cases[0]["name"] == "down");
  CHECK(cases[1]["name"] == "side");
  CHECK(cases[2]["name"] == "weight_only");
  for (const auto& lc : cases) {
    CAPTURE(lc["name"].get<std::string>());
    CHECK(lc["residual"].get<double>() < 1e-10);
    CHECK(lc["max_displacement"].get<double>() > 0);
    CHECK(lc["max_von_mises"].get<double>() > 0);
    CHECK(lc["balance"].get<double>() < 1e-10);  // each case's reactions against its own applied loads
  }
  CHECK(log.str().find(", balance ") != std::string::npos);
  // The clamp carries each case's own load plus the common weight (areas of 1 m^2).
  CHECK(cases[0]["reactions"]["xmin"][2].get<double>() == doctest::Approx(1e6 + weight).epsilon(1e-8));
  CHECK(cases[1]["reactions"]["xmin"][1].get<double>() == doctest::Approx(-2e6).epsilon(1e-8));
  CHECK(cases[1]["reactions"]["xmin"][2].get<double>() == doctest::Approx(weight).epsilon(1e-8));
  CHECK(cases[2]["reactions"]["xmin"][2].get<double>() == doctest::Approx(weight).epsilon(1e-8));
  // The top level holds the worst over the cases, and no reactions of its own.
  CHECK_FALSE(summary.contains("reactions"));
  CHECK(summary["max_displacement"].get<double>() ==
        std::max({cases[0]["max_displacement"].get<double>(), cases[1]["max_displacement"].get<double>(),
                  cases[2]["max_displacement"].get<double>()}));
  CHECK(summary["solver_figures"]["right_hand_sides"].get<double>() == 3);
  for (const char* name : {"down", "side", "weight_only"}) {
    CAPTURE(name);
    CHECK(log.str().find(std::string("load case ") + name) != std::string::npos);
    CHECK(fs::exists(dir.path / ("results/box-" + std::string(name) + ".vtu")) == bool(FEM_WITH_VTK));
  }
  CHECK(fs::exists(dir.path / "results/box.json"));
  CHECK_FALSE(fs::exists(dir.path / "results/box.vtu"));
  CHECK(log.str().find("3 load cases") != std::string::npos);
}

TEST_CASE("the frontal method solves the load cases one after another and says so") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBox);
  RunOverrides overrides;
  overrides.method = "frontal";
  std::ostringstream log;
  const auto summary = run_case(file, overrides, log);
  CHECK(summary["load_cases"].size() == 3);
  CHECK(log.str().find("one after another, element by element") != std::string::npos);
  CHECK(summary["load_cases"][0]["reactions"]["xmin"][2].get<double>() == doctest::Approx(1e6 + 7800 * 9.81 * 2).epsilon(1e-8));
}

TEST_CASE("a run without load cases keeps its one set of outputs") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBox.substr(0, kBox.find("load_cases:")));
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK_FALSE(summary.contains("load_cases"));
  CHECK(summary.contains("reactions"));
  CHECK(fs::exists(dir.path / "results/box.vtu") == bool(FEM_WITH_VTK));
  CHECK(log.str().find("  load case ") == std::string::npos);
}

TEST_CASE("fem compare on a case with load cases counts the right-hand sides and the time per one") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBox);
  study::CompareSettings settings;
  settings.combinations = study::parse_combinations("band-cholesky:cpu,frontal:cpu,cg:cpu");
  std::ostringstream log;
  const auto result = study::compare_case(file, {}, settings, "fem compare (test)", log);
  REQUIRE(result.rows.size() == 3);
  for (const auto& row : result.rows) {
    CAPTURE(row.combination());
    CHECK(row.status == study::RowStatus::Ok);
    CHECK(row.rhs == 3);
    CHECK(row.residual < 1e-8);
    CHECK(row.agrees.value_or(false));
    const auto j = study::to_json(row);
    CHECK(j["time_per_rhs_s"].get<double>() == doctest::Approx(row.time_solve_s.median / 3));
  }
  CHECK(study::csv_header().find(",rhs,time_per_rhs_s,") != std::string::npos);
  std::ostringstream table;
  study::print_table(result.rows, table);
  CHECK(table.str().find("per rhs s") != std::string::npos);
  CHECK(study::markdown_table(result.rows).find("| rhs | per rhs s |") != std::string::npos);
  // A comparison of one load set shows no such columns.
  auto single = result.rows;
  for (auto& row : single) row.rhs = 1;
  CHECK(study::markdown_table(single).find("rhs") == std::string::npos);
}

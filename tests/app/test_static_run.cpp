// The engineer's static run end to end: a temperature solved from a heat case loads the
// elasticity in the same run, and the summary answers with reactions that balance the loads,
// on every ready case too (heat: the heat flows at fixed temperatures against the heat in).
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "fem/app/run_command.hpp"
#include "fem/case/case.hpp"
#include "fem/config.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/app/run_expecting_error.hpp"

using namespace fem;
using fem::test::TempDir;

using fem::test::run_expecting_error;

namespace {

const char* kHeatCase = R"(title: every face at 120
mesh:
  box: {size: [1, 1, 1], divisions: [1, 1, 1]}   # not used: solved on the elasticity case's mesh
physics:
  type: heat
materials:
  - {k: 45}
boundary:
  - {group: xmin, temperature: 120}
  - {group: xmax, temperature: 120}
  - {group: ymin, temperature: 120}
  - {group: ymax, temperature: 120}
  - {group: zmin, temperature: 120}
  - {group: zmax, temperature: 120}
)";

const char* kCubeCase = R"(title: a cube on rollers on every face, heated by the heat case
mesh:
  box: {size: [1, 0.5, 0.5], divisions: [4, 2, 2]}
  element: hex
  order: 2
physics:
  type: elasticity
  model: 3d
materials:
  - {E: 200e9, nu: 0.3, alpha: 12e-6, reference_temperature: 20}
boundary:
  - {group: xmin, fix: [x]}
  - {group: xmax, fix: [x]}
  - {group: ymin, fix: [y]}
  - {group: ymax, fix: [y]}
  - {group: zmin, fix: [z]}
  - {group: zmax, fix: [z]}
loads:
  temperature: {from: heat.yaml}
solver:
  method: band-cholesky
)";

}  // namespace

TEST_CASE("a heat case solved in the same run loads a cube held on every side: sigma = -E alpha dT / (1 - 2 nu)") {
  TempDir dir;
  dir.write("heat.yaml", kHeatCase);
  const auto file = dir.write("cube.yaml", kCubeCase);
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  const double sigma = -200e9 * 12e-6 * 100 / (1 - 2 * 0.3);
  // The wall at xmax pushes back with sigma over its face (0.25 m^2); the rest balances.
  CHECK(summary["group_resultants"]["xmax"]["force"][0].get<double>() == doctest::Approx(sigma * 0.25).epsilon(1e-8));
  CHECK(summary["group_resultants"]["ymin"]["force"][1].get<double>() == doctest::Approx(-sigma * 0.5).epsilon(1e-8));
  CHECK(summary["balance"].get<double>() < 1e-10);
  CHECK(summary["max_principal_stress"].get<double>() == doctest::Approx(sigma).epsilon(1e-8));
  CHECK(summary["min_principal_stress"].get<double>() == doctest::Approx(sigma).epsilon(1e-8));
  CHECK(summary["max_tresca"].get<double>() < 1e-6 * std::abs(sigma));
  CHECK(summary["time_s"].contains("heat"));
  const std::string text = log.str();
  CHECK(text.find("fem: heat     heat.yaml solved on this mesh") != std::string::npos);
  CHECK(text.find("-600 MPa .. -600 MPa") != std::string::npos);  // the principal stresses, with their unit
  CHECK(text.find("balance") != std::string::npos);
}

TEST_CASE("a total force's reactions and the applied total come back in the summary") {
  TempDir dir;
  const auto file = dir.write("bolt.yaml", R"(title: a plate pulled by a bolt load
mesh:
  box: {size: [0.2, 0.05], divisions: [8, 2]}
  element: quad
  order: 2
physics:
  type: elasticity
  model: plane_stress
  thickness: 0.01
materials:
  - {E: 70e9, nu: 0.33}
boundary:
  - {group: xmin, fix: [x, y]}
  - {group: xmax, force: [754, -100]}
  - {group: ymax, moment: 12, about: [0, 0]}
output:
  moments_about: [0.2, 0]
solver:
  method: band-cholesky
)");
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK(summary["applied_total"]["force"][0].get<double>() == doctest::Approx(754).epsilon(1e-12));
  CHECK(summary["reactions"]["xmin"][0].get<double>() == doctest::Approx(-754).epsilon(1e-10));
  CHECK(summary["reactions"]["xmin"][1].get<double>() == doctest::Approx(100).epsilon(1e-10));
  // About (0.2, 0): the couple, and the force's x part acting at the middle of xmax (y = 0.025).
  CHECK(summary["applied_total"]["moment"][2].get<double>() == doctest::Approx(12 - 0.025 * 754).epsilon(1e-10));
  CHECK(summary["balance"].get<double>() < 1e-10);
  CHECK(log.str().find("(754, -100) N") != std::string::npos);
}

TEST_CASE("thermal and resultant loads refuse bad input at its line") {
  TempDir dir;
  dir.write("heat.yaml", kHeatCase);
  std::string cube = kCubeCase;
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = cube;
    text.replace(text.find(from), from.size(), to);
    return dir.write("bad.yaml", text);
  };
  CHECK(run_expecting_error(with(", reference_temperature: 20", "")).find("bad.yaml:10: 'alpha' and 'reference_temperature'") !=
        std::string::npos);
  CHECK(run_expecting_error(with("alpha: 12e-6, reference_temperature: 20", "density: 1")).find("bad.yaml:10: 'loads.temperature' needs 'alpha'") !=
        std::string::npos);
  CHECK(run_expecting_error(with("from: heat.yaml", "from: missing.yaml")).find("bad.yaml:19: heat case not found") != std::string::npos);
  dir.write("elastic.yaml", cube);
  CHECK(run_expecting_error(with("from: heat.yaml", "from: elastic.yaml")).find("bad.yaml:19: 'loads.temperature.from' names") !=
        std::string::npos);
  CHECK(run_expecting_error(with("{group: xmax, fix: [x]}", "{group: xmax, moment: 5, about: [0, 0, 0], fix: [x]}"))
            .find("bad.yaml:13: a 'boundary' entry needs exactly one condition") != std::string::npos);
}

TEST_CASE("every ready case balances its reactions and applied loads (heat: heat in) to 1e-10") {
  TempDir dir;
  std::vector<std::string> cases = {"box", "heated_bar", "hot_end_bar", "thick_cylinder_axisym", "heat_box",
                                    "hot_end_heat"};  // box meshes
  if (FEM_WITH_GMSH) cases.insert(cases.end(), {"cantilever", "plate_hole", "bracket", "fin"});
  for (const auto& name : cases) {
    CAPTURE(name);
    RunOverrides overrides;
    overrides.output_directory = dir.path;
    std::ostringstream log;
    const auto summary = run_case(std::filesystem::path(FEM_TEST_DATA_DIR) / "cases" / (name + ".yaml"),
                                  overrides, log);
    CHECK(summary["balance"].get<double>() < 1e-10);
  }
}

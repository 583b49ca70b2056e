// An axisymmetric case end to end: the ready thick cylinder against Lame with its ring totals
// named in the summary, the axis held without being asked (and said so), and the input an
// axisymmetric model cannot take refused at its line.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "fem/app/run_command.hpp"
#include "fem/physics/problem.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/app/run_expecting_error.hpp"

using namespace fem;
using fem::test::TempDir;

using fem::test::run_expecting_error;

namespace {

const char* kDisc = R"(title: a solid steel disc heated by 100 K, free to grow
mesh:
  box: {size: [0.1, 0.02], divisions: [10, 2]}
  element: tri
  order: 2
physics: {type: elasticity, model: axisymmetric}
materials:
  - {E: 200e9, nu: 0.3, alpha: 12e-6, reference_temperature: 20}
boundary:
  - {group: ymin, fix: [y]}
loads: {temperature: 120}
)";

}  // namespace

TEST_CASE("the ready thick cylinder: Lame's bore displacement, ring totals named, balanced") {
  TempDir dir;
  RunOverrides overrides;
  overrides.output_directory = dir.path;
  std::ostringstream log;
  const auto summary =
      run_case(std::filesystem::path(FEM_TEST_DATA_DIR) / "cases" / "thick_cylinder_axisym.yaml", overrides, log);
  constexpr double E = 200e9, nu = 0.3, p = 100e6, a = 0.1, b = 0.2;
  const double A = p * a * a / (b * b - a * a), B = p * a * a * b * b / (b * b - a * a);
  CHECK(summary["max_displacement"].get<double>() == doctest::Approx((1 + nu) / E * ((1 - 2 * nu) * A * a + B / a)).epsilon(0.005));
  CHECK(summary["reactions_per"].get<std::string>() == "full ring (2π)");
  CHECK(summary["reactions"]["ymax"][1].get<double>() == doctest::Approx(2 * nu * std::numbers::pi * p * a * a).epsilon(0.005));
  CHECK(summary["balance"].get<double>() < 1e-10);
  CHECK(log.str().find("per full ring (2π)") != std::string::npos);
}

TEST_CASE("a solid disc: u_r = 0 held on the axis by itself, and the run says so") {
  TempDir dir;
  RunOverrides overrides;
  overrides.output_directory = dir.path;
  std::ostringstream log;
  const auto summary = run_case(dir.write("disc.yaml", kDisc), overrides, log);
  CHECK(summary["reactions"].contains(std::string(kAxisGroup)));
  CHECK(log.str().find("u_r = 0 held on the 5 nodes on the axis") != std::string::npos);
  // Free to grow: the far corner moves by alpha dT times its distance from the axis's foot.
  CHECK(summary["max_displacement"].get<double>() == doctest::Approx(12e-6 * 100 * std::hypot(0.1, 0.02)).epsilon(1e-8));
  CHECK(summary["max_von_mises"].get<double>() < 1e-6 * 200e9 * 12e-6 * 100);
}

TEST_CASE("an axisymmetric model refuses nodes at r < 0, a 3D mesh, a thickness, a plane heat field and couples, at their line") {
  TempDir dir;
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = kDisc;
    text.replace(text.find(from), from.size(), to);
    return dir.write("bad.yaml", text);
  };
  CHECK(run_expecting_error(with("size: [0.1, 0.02]", "origin: [-0.05, 0], size: [0.1, 0.02]"))
            .find("axisymmetric takes x as the radius, but node 0 of box has x = -0.05") != std::string::npos);
  CHECK(run_expecting_error(with("model: axisymmetric}", "model: axisymmetric, thickness: 2}"))
            .find("bad.yaml:6: an axisymmetric model has no thickness") != std::string::npos);
  CHECK(run_expecting_error(with("size: [0.1, 0.02], divisions: [10, 2]}\n  element: tri", "size: [0.1, 0.02, 0.02], divisions: [2, 1, 1]}\n  element: tet"))
            .find("bad.yaml:1: physics.model axisymmetric needs a 2D mesh") != std::string::npos);
  dir.write("heat.yaml", "mesh: {box: {size: [1, 1], divisions: [1, 1]}}\nphysics: {type: heat}\nmaterials: [{k: 45}]\n"
                         "boundary: [{group: xmin, temperature: 120}]\n");
  CHECK(run_expecting_error(with("{temperature: 120}", "{temperature: {from: heat.yaml}}"))
            .find("bad.yaml:11: 'loads.temperature.from' names " + (dir.path / "heat.yaml").string() +
                  ", which is not axisymmetric as this case is") != std::string::npos);
  CHECK(run_expecting_error(with("{group: ymin, fix: [y]}", "{group: ymin, fix: [y]}\n  - {group: ymax, moment: 5}"))
            .find("bad.yaml:11: group 'ymax': an axisymmetric model takes a total force along the axis only") != std::string::npos);
  CHECK(run_expecting_error(with("{group: ymin, fix: [y]}", "{group: ymin, fix: [y]}\n  - {group: xmax, force: [10, 0]}"))
            .find("bad.yaml:11: group 'xmax': an axisymmetric model takes a total force along the axis only") != std::string::npos);
}

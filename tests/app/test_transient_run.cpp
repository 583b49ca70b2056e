// `fem run` on a transient heat case: the step lines, the .pvd listing <case>_<step>.vtu with
// their times, the JSON (times, temperature ranges, heat budget, set-up and step times) and the
// transient checks of the case file.
#include <doctest/doctest.h>

#include <sstream>

#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/app/run_expecting_error.hpp"

using namespace fem;
using fem::test::slurp;
using fem::test::TempDir;

using fem::test::run_expecting_error_of_text;

namespace {

const char* kBar = R"(title: bar heated at one end
mesh:
  box: {size: [1, 0.1], divisions: [20, 2]}
  element: quad
physics: {type: heat}
materials:
  - {k: 1, density: 1, specific_heat: 1}
boundary:
  - {group: xmin, temperature: 100}
analysis: {type: transient, end_time: 0.05, time_step: 0.01, theta: 0.5, initial_temperature: 20, output_every: 2}
solver: {method: band-cholesky}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a transient run writes a time series and its summary") {
  TempDir dir;
  const auto file = dir.write("bar.yaml", kBar);
  std::ostringstream log;
  run_case(file, {}, log);
  CHECK(log.str().find("fem: step     4/5") != std::string::npos);
  CHECK(log.str().find("5 steps of 0.01 s (theta 0.5) on band-cholesky cpu") != std::string::npos);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/bar.json"));
  CHECK(json["analysis"] == "transient");
  CHECK(json["times"].get<std::vector<double>>() == std::vector<double>{0, 0.02, 0.04, 0.05});
  CHECK(json["temperature_min"][0] == 20.0);
  CHECK(json["temperature_max"][3].get<double>() == doctest::Approx(100));
  CHECK(json["residual"].get<double>() < 1e-12);
  CHECK(json["solver_time_s"].contains("per_step"));
  const auto& budget = json["heat_budget"];
  CHECK(budget["stored"][3].get<double>() == doctest::Approx(budget["in_fixed"][3].get<double>()).epsilon(1e-9));
#if FEM_WITH_VTK
  const std::string pvd = slurp(dir.path / "results/bar.pvd");
  CHECK(pvd.find("timestep=\"0.040000000000000001\" group=\"\" part=\"0\" file=\"bar_4.vtu\"") != std::string::npos);
  for (const char* f : {"bar_0.vtu", "bar_2.vtu", "bar_4.vtu", "bar_5.vtu", "bar-view.py"})
    CHECK(std::filesystem::exists(dir.path / "results" / f));
  CHECK(!std::filesystem::exists(dir.path / "results/bar_1.vtu"));
  CHECK(slurp(dir.path / "results/bar_5.vtu").find("heat_flux") != std::string::npos);
#endif
}

TEST_CASE("an insulated body heated by a flux needs no held boundary in a transient run") {
  TempDir dir;
  const auto file = dir.write("flux.yaml", replaced(kBar, "{group: xmin, temperature: 100}", "{group: xmin, flux: 10}"));
  std::ostringstream log;
  run_case(file, {}, log);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/flux.json"));
  // 10 W/m^2 over the 0.1 m edge (unit thickness) for 0.05 s, all stored.
  CHECK(json["heat_budget"]["stored"][3].get<double>() == doctest::Approx(0.05).epsilon(1e-9));
  CHECK(json["heat_budget"]["in_loads"][3].get<double>() == doctest::Approx(0.05).epsilon(1e-9));
}

TEST_CASE("the transient checks of a case name the line") {
  CHECK(run_expecting_error_of_text(replaced(kBar, ", specific_heat: 1", "")).find("case.yaml:7: a transient analysis needs a 'specific_heat'") !=
        std::string::npos);
  CHECK(run_expecting_error_of_text(replaced(kBar, "time_step: 0.01", "time_step: 0.03")).find("case.yaml:10:") != std::string::npos);
  CHECK(run_expecting_error_of_text(replaced(kBar, "theta: 0.5", "theta: 0.2")).find("'theta' must lie in [0.5, 1]") != std::string::npos);
  CHECK(run_expecting_error_of_text(replaced(kBar, "end_time: 0.05, ", "")).find("needs 'end_time'") != std::string::npos);
  CHECK(run_expecting_error_of_text(replaced(kBar, "{method: band-cholesky}", "{method: frontal}")).find("element by element") !=
        std::string::npos);
  CHECK(run_expecting_error_of_text(replaced(kBar, "type: transient,", "type: static,")).find("'end_time' goes with 'type: transient'") !=
        std::string::npos);
}

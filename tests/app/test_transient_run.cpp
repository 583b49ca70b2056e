// `fem run` on a transient heat case: the step lines, the .pvd listing <case>_<step>.vtu with
// their times, the JSON (times, temperature ranges, heat budget, set-up and step times) and the
// transient checks of the case file; values that follow tables of (t, value) pairs.
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

TEST_CASE("a boundary temperature given as a table of (t, value) pairs is followed, logged and recorded") {
  TempDir dir;
  const auto file = dir.write("ramp.yaml", replaced(kBar, "temperature: 100}", "temperature: [[0, 20], [0.02, 60], [1, 60]]}"));
  std::ostringstream log;
  run_case(file, {}, log);
  CHECK(log.str().find("fem: tables   group 'xmin' temperature (3 pairs); linear between their times, held beyond") !=
        std::string::npos);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/ramp.json"));
  const auto& tables = json["time_tables"];
  REQUIRE(tables.size() == 1);
  CHECK(tables[0]["key"] == "temperature");
  CHECK(tables[0]["group"] == "xmin");
  CHECK(tables[0]["line"] == 9);
  CHECK(tables[0]["times"].get<std::vector<double>>() == std::vector<double>{0, 0.02, 1});
  CHECK(tables[0]["at_written_times"].get<std::vector<double>>() == std::vector<double>{20, 60, 60, 60});
  CHECK(json["time_tables_rule"].get<std::string>().find("theta f(t_n+1) + (1 - theta) f(t_n)") != std::string::npos);
  // The held face is at 60 from t = 0.02 on; the body started at 20 and warms towards it.
  CHECK(json["temperature_max"][1].get<double>() == doctest::Approx(60));
  CHECK(json["temperature_min"][3].get<double>() >= 20.0 - 1e-9);
  const auto& budget = json["heat_budget"];
  CHECK(budget["stored"][3].get<double>() == doctest::Approx(budget["in_fixed"][3].get<double>()).epsilon(1e-9));
}

TEST_CASE("a flux table's heat is all stored, and a run without tables records none") {
  TempDir dir;
  // 0 to 20 W/m^2 over 0.05 s on the 0.1 m edge: Crank-Nicolson's trapezoids on the table's times give 0.05 J.
  const auto file = dir.write("ramp.yaml", replaced(kBar, "{group: xmin, temperature: 100}", "{group: xmin, flux: [[0, 0], [0.05, 20]]}"));
  std::ostringstream log;
  run_case(file, {}, log);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/ramp.json"));
  CHECK(json["heat_budget"]["stored"][3].get<double>() == doctest::Approx(0.05).epsilon(1e-9));
  const auto at_written = json["time_tables"][0]["at_written_times"].get<std::vector<double>>();
  REQUIRE(at_written.size() == 4);
  for (int k = 0; k < 4; ++k) CHECK(at_written[k] == doctest::Approx(std::vector<double>{0, 8, 16, 20}[k]));
  const auto plain = dir.write("plain.yaml", kBar);
  std::ostringstream plain_log;
  run_case(plain, {}, plain_log);
  CHECK(plain_log.str().find("fem: tables") == std::string::npos);
  const auto plain_json = nlohmann::json::parse(slurp(dir.path / "results/plain.json"));
  CHECK(plain_json["time_tables"].empty());
  CHECK(!plain_json.contains("time_tables_rule"));
}

TEST_CASE("tables of (t, value) pairs are checked where they are written") {
  const auto error_with = [](const std::string& from, const std::string& to) {
    return run_expecting_error_of_text(replaced(kBar, from, to));
  };
  const std::string held = "temperature: 100}";
  CHECK(error_with(held, "temperature: [[0, 20], [5, 30], [5, 40]]}").find("case.yaml:9: 'temperature': the times of its table must increase strictly (5 follows 5)") !=
        std::string::npos);
  CHECK(error_with(held, "temperature: [[0, 20], [-1, 30]]}").find("must increase strictly (-1 follows 0)") != std::string::npos);
  CHECK(error_with(held, "temperature: []}").find("case.yaml:9: 'temperature' must be a number or a table of (t, value) pairs") !=
        std::string::npos);
  CHECK(error_with(held, "temperature: []}").find("this table is empty") != std::string::npos);
  CHECK(error_with(held, "temperature: [[0, 20, 3]]}").find("must be a number or a table of (t, value) pairs") != std::string::npos);
  CHECK(error_with(held, "temperature: [[0, hot]]}").find("must be a number or a table of (t, value) pairs") != std::string::npos);
  CHECK(error_with(held, "temperature: [[0, .inf]]}").find("case.yaml:9: 'temperature': a pair of its table holds a number that is not finite") !=
        std::string::npos);
  CHECK(error_with(held, "temperature: [[.nan, 1]]}").find("not finite") != std::string::npos);
  // Only a transient analysis follows time.
  const std::string static_bar = replaced(replaced(kBar, "analysis: {type: transient, end_time: 0.05, time_step: 0.01, theta: 0.5, initial_temperature: 20, output_every: 2}\n", ""), held,
                                          "temperature: [[0, 20], [1, 30]]}");
  CHECK(run_expecting_error_of_text(static_bar).find("case.yaml:9: 'temperature' is a table of (t, value) pairs, which only a transient analysis follows") !=
        std::string::npos);
  CHECK(run_expecting_error_of_text(static_bar).find("a static analysis takes a number") != std::string::npos);
  const std::string static_source = replaced(kBar, "analysis: {type: transient, end_time: 0.05, time_step: 0.01, theta: 0.5, initial_temperature: 20, output_every: 2}\n", "loads: {source: [[0, 1], [2, 3]]}\n");
  CHECK(run_expecting_error_of_text(static_source).find("case.yaml:10: 'source' is a table of (t, value) pairs") != std::string::npos);
  // Convection's h is part of the matrix prepared once; its T_inf may follow a table.
  CHECK(error_with(held, "temperature: 100}\n  - {group: xmax, convection: {h: [[0, 5], [1, 10]], T_inf: 20}}").find(
            "case.yaml:10: 'h' in 'convection' must be a number: it is part of the matrix") != std::string::npos);
  TempDir dir;
  std::ostringstream log;
  run_case(dir.write("air.yaml", replaced(kBar, held, "temperature: 100}\n  - {group: xmax, convection: {h: 5, T_inf: [[0, 20], [1, 40]]}}")), {}, log);
  CHECK(log.str().find("group 'xmax' T_inf (2 pairs)") != std::string::npos);
}

TEST_CASE("the ready case cases/fin_heater.yaml follows its heater's ramp and the room's warming") {
  if (!FEM_WITH_GMSH) return;  // its mesh is a .geo
  TempDir dir;
  RunOverrides overrides;
  overrides.output_directory = dir.path;
  std::ostringstream log;
  const auto json = run_case(std::filesystem::path(FEM_TEST_DATA_DIR) / "cases/fin_heater.yaml", overrides, log);
  REQUIRE(json["time_tables"].size() == 2);
  // Written every 10 minutes: the base has reached 90 °C by the first, the room 30 °C by the sixth.
  CHECK(json["temperature_max"][1].get<double>() == doctest::Approx(90));
  CHECK(json["time_tables"][0]["at_written_times"][6].get<double>() == doctest::Approx(30));
  const auto& budget = json["heat_budget"];
  CHECK(budget["stored"].back().get<double>() ==
        doctest::Approx(budget["in_fixed"].back().get<double>() + budget["in_loads"].back().get<double>()).epsilon(1e-9));
}

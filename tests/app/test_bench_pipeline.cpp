// `fem bench pipeline` end to end on a tiny cube: its rows in CSV and JSON, each phase's time
// from the fresh process's summary, a device this build or machine lacks as `unavailable`, and
// bad option values refused (exit 2) before anything runs.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tests/app/app_test_support.hpp"

using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

int fem_bench(const TempDir& dir, const std::string& arguments) {
  const int raw = std::system((std::string(FEM_EXECUTABLE) + " bench pipeline " + arguments + " > " +
                               (dir.path / "out.txt").string() + " 2> " + (dir.path / "err.txt").string())
                                  .c_str());
  return WEXITSTATUS(raw);
}

}  // namespace

TEST_CASE("fem bench pipeline runs each size in its own process and writes its rows as CSV and JSON") {
  TempDir dir;
  const fs::path out = dir.path / "pipeline";
  const int status = fem_bench(dir, "--cases hex8-heat,hex8-elasticity --sizes 3,4 --devices cpu,cuda --write none "
                                    "--output " + out.string());
  CAPTURE(slurp(dir.path / "out.txt"));
  CAPTURE(slurp(dir.path / "err.txt"));
  REQUIRE(status == 0);
  const std::string csv = slurp(out / "pipeline.csv");
  CHECK(csv.find("hex8-heat,3,cpu,ok") != std::string::npos);
  CHECK(csv.find("hex8-elasticity,4,cpu,ok") != std::string::npos);

  std::ifstream in(out / "pipeline.json");
  const auto json = nlohmann::json::parse(in);
  CHECK(json.at("triad_GBps").get<double>() > 0);
  int cpu_rows = 0;
  for (const auto& row : json.at("rows")) {
    CAPTURE(row.dump());
    if (row.at("device") == "cuda") {
      CHECK((row.at("status") == "ok" || row.at("status") == "unavailable"));
      continue;
    }
    ++cpu_rows;
    CHECK(row.at("status") == "ok");
    for (const char* phase : {"mesh", "renumber", "assemble", "solve", "post", "write"})
      CHECK(row.at("time_s").contains(phase));
    CHECK(row.at("dofs").get<long long>() > 0);
    CHECK(row.at("peak_host_bytes_per_dof").get<double>() > 0);
    // The peak as each phase ended: the assembly's at least the mesh's, the last the run's own.
    const auto& after = row.at("peak_host_bytes_after_phase");
    CHECK(after.at("assemble").get<double>() >= after.at("mesh").get<double>());
    CHECK(after.at("write").get<double>() <= row.at("peak_host_bytes").get<double>());
    CHECK(row.at("write").at("bytes").get<double>() == 0);  // --write none
  }
  CHECK(cpu_rows == 4);
}

TEST_CASE("fem bench pipeline refuses bad option values with exit 2, naming the option") {
  TempDir dir;
  for (const auto& [arguments, named] : std::vector<std::pair<std::string, std::string>>{
           {"--sizes 20,1", "--sizes"}, {"--devices cpu,tpu", "--devices"}, {"--write vtk", "--write"},
           {"--cases hex27", "--cases"}, {"--repeat 0", "--repeat"}}) {
    CAPTURE(arguments);
    CHECK(fem_bench(dir, arguments + " --output " + (dir.path / "never").string()) == 2);
    CHECK(slurp(dir.path / "err.txt").find(named) != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "never"));
  }
}

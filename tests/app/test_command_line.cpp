// The `fem` command line: every command answers --help, choices and --set values are checked
// (exit 2 for a usage error, 1 for a bad case), and --set changes the case as the file would.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "bench/spmv/matrix_market_reader.hpp"
#include "fem/config.hpp"
#include "fem/app/run_command.hpp"
#include "solvers/solver_table.hpp"
#include "tests/app/app_test_support.hpp"

using namespace fem;
using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

const char* kBoxCase = R"(title: heated bar
mesh:
  box: {size: [2, 1, 1], divisions: [4, 2, 2]}
  element: hex
  order: 2
physics:
  type: heat
materials:
  - {k: 40}
boundary:
  - {group: xmin, temperature: 0}
  - {group: xmax, flux: 1000}
solver: {method: cg, tolerance: 1e-12}
)";

struct Outcome {
  int status;
  std::string out, err;
};

Outcome fem_command(const TempDir& dir, const std::string& arguments) {
  const int raw = std::system((std::string(FEM_EXECUTABLE) + " " + arguments + " > " + (dir.path / "out.txt").string() +
                               " 2> " + (dir.path / "err.txt").string())
                                  .c_str());
  return {WEXITSTATUS(raw), slurp(dir.path / "out.txt"), slurp(dir.path / "err.txt")};
}

// A command that fails with `status` and says `message`.
void check_refused(const Outcome& outcome, int status, const std::string& message) {
  CHECK(outcome.status == status);
  CHECK(outcome.err.find(message) != std::string::npos);
}

nlohmann::json run_with(const fs::path& file, std::vector<std::string> settings) {
  RunOverrides overrides;
  overrides.settings = std::move(settings);
  overrides.quiet = true;
  std::ostringstream log;
  return run_case(file, overrides, log);
}

double temperature_rise(const nlohmann::json& summary) {
  return summary["temperature_range"][1].get<double>() - summary["temperature_range"][0].get<double>();
}

std::string case_error(const fs::path& file, std::vector<std::string> settings) {
  RunOverrides overrides;
  overrides.settings = std::move(settings);
  try {
    load_case_with(file, overrides);
  } catch (const CaseError& e) {
    return e.what();
  }
  FAIL("the case should have been refused");
  return "";
}

}  // namespace

TEST_CASE("--set replaces a case key before the case is read, nested and in lists") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  const auto quadratic = run_with(file, {});
  const auto linear = run_with(file, {"mesh.order=1"});
  CHECK(quadratic["nodes"] == 9 * 5 * 5);
  CHECK(linear["nodes"] == 5 * 3 * 3);
  // Half the conductivity, twice the temperature rise: the list entry was changed, not added.
  const auto hotter = run_with(file, {"materials.0.k=20"});
  CHECK(temperature_rise(hotter) == doctest::Approx(2 * temperature_rise(quadratic)).epsilon(1e-6));
  // A section the file does not have is created.
  const auto sourced = run_with(file, {"loads.source=1e4", "solver.tolerance=1e-13"});
  CHECK(temperature_rise(sourced) > temperature_rise(quadratic));
  // '+' appends an entry: a second flux on the same face doubles the heat through the bar.
  const auto doubled = run_with(file, {"boundary.+={group: xmax, flux: 1000}"});
  CHECK(temperature_rise(doubled) == doctest::Approx(2 * temperature_rise(quadratic)).epsilon(1e-6));
  CHECK(case_error(file, {"solver.+=1"}).find("'+' appends to a list") != std::string::npos);
}

TEST_CASE("--set values are checked like the file's, and say they came from --set") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  const auto bad_number = case_error(file, {"solver.tolerance=-1"});
  CHECK(bad_number.find("box.yaml (--set): 'tolerance' in 'solver' must be positive") != std::string::npos);
  CHECK(case_error(file, {"solver.tolerence=1e-8"}).find("unknown key 'tolerence' in 'solver'") != std::string::npos);
  CHECK(case_error(file, {"mesh.order=two"}).find("'order' in 'mesh' must be 1 or 2") != std::string::npos);
  CHECK(case_error(file, {"materials.3.E=1"}).find("past the end of a list of 1") != std::string::npos);
  CHECK(case_error(file, {"mesh.box.size.x=1"}).find("mesh.box.size.x=1") != std::string::npos);
}

TEST_CASE("output.compression reaches the case: none, lz4 or zlib") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  CHECK(load_case(file).output.compression == kDefaultVtuCompression);
  CHECK(load_case(file, {"output.compression=lz4"}).output.compression == VtuCompression::Lz4);
  CHECK(load_case(file, {"output.compression=zlib"}).output.compression == VtuCompression::Zlib);
  CHECK(load_case(file, {"output.compression=none"}).output.compression == VtuCompression::None);
  CHECK(case_error(file, {"output.compression=bzip2"}).find("'compression' is 'bzip2'; expected one of: none, lz4, zlib") !=
        std::string::npos);
}

TEST_CASE("every fem command has its own --help; usage errors exit 2 and name the fault") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  for (const char* command : {"run", "check", "renumber", "compare", "sweep", "report", "render", "bench", "solvers"}) {
    CAPTURE(command);
    const auto help = fem_command(dir, std::string(command) + " --help");
    CHECK(help.status == 0);
    CHECK(help.out.find(std::string("fem ") + command) != std::string::npos);
  }
  CHECK(fem_command(dir, "renumber --help").out.find("--plot") != std::string::npos);
  CHECK(fem_command(dir, "").status == 2);
  check_refused(fem_command(dir, "run " + file.string() + " --set mesh.size"), 2, "key.path=value");
  check_refused(fem_command(dir, "run " + file.string() + " --set mesh.order=3"), 1, "(--set)");
  CHECK(fem_command(dir, "run " + file.string() + " --set mesh.order=1 --quiet --output " + (dir.path / "r").string()).status == 0);
  CHECK(fs::exists(dir.path / "r/box.json"));
}

TEST_CASE("the solver choices and their help come from the solver table") {
  TempDir dir;
  const auto run_help = fem_command(dir, "run --help").out;
  const auto compare_help = fem_command(dir, "compare --help").out;
  const auto listing = fem_command(dir, "solvers");
  CHECK(listing.status == 0);
  std::string choices;
  for (const auto& method : solver_table()) {
    CAPTURE(std::string(method.name()));
    choices += (choices.empty() ? "" : ",") + std::string(method.name());
    for (const auto& text : {run_help, compare_help, listing.out}) CHECK(text.find(method.help) != std::string::npos);
    for (const auto& device : method.devices)
      if (!device.built()) CHECK(listing.out.find(std::string(method.name()) + ":" + device.name()) != std::string::npos);
  }
  CHECK(run_help.find("--solver TEXT:{" + choices + ",auto}") != std::string::npos);
  CHECK(run_help.find("--device TEXT:{cpu,cuda,opencl}") != std::string::npos);
}

TEST_CASE("an unknown solver method and one this build lacks each have their own message") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::string lu = kBoxCase;
  lu.replace(lu.find("method: cg"), 10, "method: lu");
  const auto unknown = dir.write("unknown.yaml", lu);
  check_refused(fem_command(dir, "run " + unknown.string()), 1, "unknown.yaml:13: 'method' is 'lu'; expected one of: band-cholesky, band-gauss");
  check_refused(fem_command(dir, "run " + file.string() + " --solver lu"), 2, "--solver: lu not in {band-cholesky,");
  check_refused(fem_command(dir, "run " + file.string() + " --solver band-ldlt --device opencl"), 1,
                "band-ldlt is not available on opencl (band-ldlt runs on: cpu)");

  for (const auto& method : solver_table())
    for (const auto& device : method.devices) {
      if (device.built()) continue;
      CAPTURE(std::string(method.name()) + ":" + device.name());
      const std::string expected = std::string(method.name()) + " on " + device.name() + " is not available in this build (configure with -DFEM_WITH_";
      for (const char* command : {"run", "check"}) {
        const auto unbuilt = fem_command(dir, std::string(command) + " " + file.string() + " --solver " + method.name() + " --device " +
                                                  device.name() + " --output " + (dir.path / "r").string());
        check_refused(unbuilt, 1, expected);
        CHECK(unbuilt.out.find("fem: mesh") == std::string::npos);  // said before the mesh is made
      }
      CHECK_FALSE(fs::exists(dir.path / "r"));
    }
}

TEST_CASE("fem renumber --plot writes the table with the auto row and the picture of what auto picked") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  const auto result =
      fem_command(dir, "renumber " + file.string() + " --plot --renumber auto --solver frontal --output " + (dir.path / "r").string());
  CAPTURE(result.err);
  CHECK(result.status == 0);
  const auto csv = slurp(dir.path / "r/box-renumber.csv");
  CHECK(csv.find("\nauto/") != std::string::npos);
  CHECK(slurp(dir.path / "r/box-sparsity.png").substr(1, 3) == "PNG");
  for (const auto& entry : fs::directory_iterator(dir.path / "r"))
    CHECK(entry.path().filename().string().find("partial") == std::string::npos);
}

TEST_CASE("a run into a file prints its progress as plain lines, and --quiet prints none") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  // A small interval stands for a solve that lasts several intervals.
  const std::string run = "run " + file.string() + " --set mesh.box.divisions=[16,8,8] --set solver.preconditioner=none " +
                          "--set solver.tolerance=1e-12 --output " + (dir.path / "r").string();
  const auto talkative = fem_command(dir, run + " --progress-interval 0.001");
  REQUIRE(talkative.status == 0);
  CHECK(talkative.out.find("fem: solve    ... iteration ") != std::string::npos);
  CHECK(talkative.out.find(" left\n") != std::string::npos);
  CHECK(talkative.out.find('\r') == std::string::npos);  // not a terminal: no rewriting
  const auto quiet = fem_command(dir, run + " --progress-interval 0.001 --quiet");
  REQUIRE(quiet.status == 0);
  CHECK(quiet.out.find("iteration ") == std::string::npos);
  CHECK(quiet.out.find("fem: solve") != std::string::npos);
}

TEST_CASE("the assembly and a multifrontal factorisation print their progress, and --quiet prints none") {
  if (!FEM_WITH_METIS) return;  // no multifrontal solver in this build
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  const std::string run = "run " + file.string() + " --set mesh.box.divisions=[16,8,8] --set solver.method=multifrontal " +
                          "--progress-interval 0.001 --output " + (dir.path / "r").string();
  const auto talkative = fem_command(dir, run);
  REQUIRE(talkative.status == 0);
  CHECK(talkative.out.find("fem: assemble ... elements ") != std::string::npos);
  CHECK(talkative.out.find(" of 1024 (") != std::string::npos);
  CHECK(talkative.out.find("fem: solve    ... fronts ") != std::string::npos);
  CHECK(talkative.out.find("% of the work), about ") != std::string::npos);
  CHECK(talkative.out.find('\r') == std::string::npos);
  const auto quiet = fem_command(dir, run + " --quiet");
  REQUIRE(quiet.status == 0);
  CHECK(quiet.out.find(" ... ") == std::string::npos);
  CHECK(quiet.out.find("fem: assemble") != std::string::npos);
}

TEST_CASE("fem run --export-matrix writes K and f in Matrix Market, and fem bench spmv reads K back") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  const auto out = dir.path / "r";
  REQUIRE(fem_command(dir, "run " + file.string() + " --export-matrix --quiet --output " + out.string()).status == 0);
  const auto summary = nlohmann::json::parse(slurp(out / "box.json"));
  const CsrMatrix k = fem::bench::read_matrix_market((out / "box-K.mtx").string());
  CHECK(k.rows == summary["dofs"].get<std::int64_t>());
  CHECK(k.row_ptr[k.rows] == summary["nnz"].get<std::int64_t>());
  // Symmetric with a positive diagonal, as a stiffness matrix with its conditions applied is.
  std::map<std::pair<std::int64_t, std::int64_t>, double> entries;
  for (std::int64_t i = 0; i < k.rows; ++i)
    for (auto p = k.row_ptr[i]; p < k.row_ptr[i + 1]; ++p) entries[{i, k.col[p]}] = k.val[p];
  bool symmetric = true, positive_diagonal = true;
  for (const auto& [at, value] : entries) {
    symmetric = symmetric && entries.count({at.second, at.first}) && entries[{at.second, at.first}] == value;
    positive_diagonal = positive_diagonal && (at.first != at.second || value > 0);
  }
  CHECK(symmetric);
  CHECK(positive_diagonal);
  std::istringstream f(slurp(out / "box-f.mtx"));
  std::string header, comment, line;
  std::getline(f, header);
  std::getline(f, comment);
  CHECK(header == "%%MatrixMarket matrix array real general");
  std::getline(f, line);
  CHECK(line == std::to_string(k.rows) + " 1");
  double flux_in = 0, value = 0;
  while (f >> value) flux_in += value;
  CHECK(flux_in == doctest::Approx(1000.0 * 1 * 1));  // the flux on the 1 x 1 face at xmax
  const auto bench = fem_command(dir, "bench spmv --no-fe --no-sweep --no-opencl --cpu --energy-window 0 --csv " +
                                          (dir.path / "spmv.csv").string() + " " + (out / "box-K.mtx").string());
  CAPTURE(bench.err);
  CHECK(bench.status == 0);
  CHECK(slurp(dir.path / "spmv.csv").find("box-K.mtx," + std::to_string(k.rows) + "," + std::to_string(k.row_ptr[k.rows]) + ",cpu") !=
        std::string::npos);
  // CG with AMG takes K as node blocks (no CSR assembled): the export converts them, entry for entry
  // the CSR that CG with Jacobi is assembled in.
  for (const char* preconditioner : {"amg", "jacobi"}) {
    const auto folder = dir.path / preconditioner;
    REQUIRE(fem_command(dir, "run " + file.string() + " --export-matrix --quiet --set solver.preconditioner=" +
                                 preconditioner + " --output " + folder.string())
                .status == 0);
  }
  CHECK(slurp(dir.path / "amg" / "box-K.mtx") == slurp(dir.path / "jacobi" / "box-K.mtx"));
  CHECK(slurp(dir.path / "amg" / "box-f.mtx") == slurp(dir.path / "jacobi" / "box-f.mtx"));
}

TEST_CASE("every benchmark answers fem bench NAME --help, and refuses a bad option value with exit 2, naming it, before it runs") {
  TempDir dir;
  const std::string csv = " --csv " + (dir.path / "rows.csv").string();
  struct Refusal {
    std::string benchmark, arguments, named;
  };
  const std::vector<Refusal> refusals = {
      {"assembly", "--threads 2", "--threads"},
      {"band", "--impl blas,lapack", "lapack"},
      {"dense", "--precision half", "--precision"},
      {"frontal", "--sizes-2d 10,-4", "--sizes-2d"},
      {"renumber", "missing-case.yaml", "missing-case.yaml"},
      {"spmv", "--set huge", "--set"},
  };
  for (const auto& r : refusals) {
    CAPTURE(r.benchmark);
    const auto help = fem_command(dir, "bench " + r.benchmark + " --help");
    CHECK(help.status == 0);
    CHECK(help.out.find("Usage: fem bench " + r.benchmark) != std::string::npos);
    CHECK(help.out.find("--csv") != std::string::npos);
    const auto refused = fem_command(dir, "bench " + r.benchmark + " " + r.arguments + csv);
    CAPTURE(refused.err);
    CHECK(refused.status == 2);
    CHECK(refused.err.find("fem bench " + r.benchmark + ": ") != std::string::npos);
    CHECK(refused.err.find(r.named) != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path / "rows.csv"));
  }
}

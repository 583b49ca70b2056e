// `fem compare` and `fem sweep`: every CPU solver agrees on a small case, a deliberately loose
// one does not, an unavailable one is a row that says so, the CSV and JSON hold the promised
// columns, and a sweep over a tiny study fits its growth and honours its budget.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/config.hpp"
#include "fem/pipeline/make_mesh.hpp"
#include "fem/pipeline/run_overrides.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/comparison.hpp"
#include "fem/study/compare_case.hpp"
#include "fem/study/energy_probe.hpp"
#include "fem/study/power_law_fit.hpp"
#include "fem/study/study_file.hpp"
#include "fem/study/study_writer.hpp"
#include "fem/study/sweep.hpp"
#include "tests/app/app_test_support.hpp"
#include "support/stopwatch.hpp"

using namespace fem;
using namespace fem::study;
using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

const std::string kSmallBox = fem::test::cantilever_case(
    "small box for studies", "{size: [2, 1, 1], divisions: [6, 3, 3]}", "-1e6", "  renumber: rcm\n  tolerance: 1e-12\n");

const std::vector<const char*> kCsvColumns = {"solver", "device", "renumber", "dofs", "nnz", "bandwidth", "time_setup_s",
                                              "time_solve_s", "peak_memory_bytes", "iterations", "residual",
                                              "max_rel_diff", "agrees", "status"};

// A CSV with quoted fields (RFC 4180) into rows of cells.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string cell;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') cell += text[++i];
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') quoted = true;
    else if (c == ',') rows.back().push_back(std::move(cell)), cell.clear();
    else if (c == '\n') {
      rows.back().push_back(std::move(cell));
      cell.clear();
      rows.emplace_back();
    } else cell += c;
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// The CSV's rows as column -> value maps, checking every line has every column.
std::vector<std::map<std::string, std::string>> csv_records(const fs::path& file) {
  const auto rows = parse_csv(slurp(file));
  REQUIRE(rows.size() >= 2);
  for (const char* column : kCsvColumns)
    CHECK_MESSAGE(std::find(rows[0].begin(), rows[0].end(), column) != rows[0].end(), column);
  std::vector<std::map<std::string, std::string>> records;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == rows[0].size());
    std::map<std::string, std::string> record;
    for (std::size_t c = 0; c < rows[0].size(); ++c) record[rows[0][c]] = rows[r][c];
    records.push_back(record);
  }
  return records;
}

StudyResult compare(const fs::path& file, const std::string& solvers, double tolerance, const RunOverrides& overrides = {}) {
  CompareSettings settings;
  settings.combinations = parse_combinations(solvers);
  settings.tolerance = tolerance;
  std::ostringstream log;
  return compare_case(file, overrides, settings, "fem compare (test)", log);
}

}  // namespace

TEST_CASE("every CPU solver agrees on a small case, and the outputs hold the columns") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kSmallBox);
  const std::string cpu = "band-cholesky:cpu,band-gauss:cpu,band-ldlt:cpu,frontal:cpu,cg:cpu,bicgstab:cpu";
  const StudyResult result = compare(file, cpu, 1e-7);
  REQUIRE(result.rows.size() == 6);
  for (const auto& row : result.rows) {
    CAPTURE(row.combination());
    CHECK(row.status == RowStatus::Ok);
    REQUIRE(row.agrees.has_value());
    CHECK(*row.agrees);
    CHECK(row.residual < 1e-9);
    CHECK(row.time_total_s.median > 0);
  }
  CHECK(result.rows[0].reference);
  CHECK(result.rows[0].factor_bytes.has_value());  // band Cholesky reports its factor
  CHECK(result.rows[4].iterations > 0);            // CG iterates

  std::ostringstream log;
  write_study(result, dir.path / "study", log);
  const auto records = csv_records(dir.path / "study/compare.csv");
  REQUIRE(records.size() == 6);
  CHECK(records[0].at("solver") == "band-cholesky");
  CHECK(records[3].at("solver") == "frontal");
  for (const auto& r : records) {
    CHECK(r.at("agrees") == "true");
    CHECK(r.at("status") == "ok");
    CHECK(std::stoll(r.at("dofs")) == 3 * 7 * 4 * 4);
    CHECK(std::stod(r.at("peak_memory_bytes")) >= 0);
  }
  const auto json = nlohmann::json::parse(slurp(dir.path / "study/compare.json"));
  REQUIRE(json["rows"].size() == 6);
  for (const char* column : kCsvColumns) CHECK_MESSAGE(json["rows"][0].contains(column), column);
  for (const char* key : {"cpu", "threads_used", "gpus", "libraries", "git", "date"})
    CHECK_MESSAGE(json["environment"].contains(key), key);
  // The optional libraries are recorded where the build has them, with their versions.
  const auto& libraries = json["environment"]["libraries"];
  CHECK(libraries.contains("vtk") == bool(FEM_WITH_VTK));
  CHECK(libraries.contains("gmsh") == bool(FEM_WITH_GMSH));
  if (FEM_WITH_GMSH) CHECK(libraries["gmsh"].get<std::string>().find('.') != std::string::npos);
  CHECK(slurp(dir.path / "study/report.md").find("| band-cholesky:cpu |") != std::string::npos);
  CHECK(log.str().find("frontal:cpu") != std::string::npos);  // the terminal table
}

TEST_CASE("the energy probe measures a CUDA device only") {
  EnergyProbe cpu(Device::Cpu);
  cpu.start();
  CHECK_FALSE(cpu.stop_joules().has_value());
  if (FEM_WITH_CUDA) return;  // NVML answers where the driver has it
  EnergyProbe cuda(Device::Cuda);
  cuda.start();
  CHECK_FALSE(cuda.stop_joules().has_value());
}

TEST_CASE("a CG with a loose tolerance does not agree at a strict threshold") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kSmallBox);
  RunOverrides loose;
  loose.tolerance = 1e-2;  // CG stops early; the direct solver does not care
  // Jacobi: on so small a box AMG is one exact coarse solve, which would agree anyway.
  const StudyResult result = compare(file, "band-cholesky:cpu,cg:cpu:jacobi", 1e-9, loose);
  REQUIRE(result.rows.size() == 2);
  CHECK(*result.rows[0].agrees);
  REQUIRE(result.rows[1].status == RowStatus::Ok);
  CHECK(*result.rows[1].max_rel_diff > 1e-9);
  CHECK_FALSE(*result.rows[1].agrees);
}

TEST_CASE("an unavailable combination is a row with its status, and the study goes on") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kSmallBox);
  // No build has band LDLT on OpenCL: unavailable on every machine.
  const StudyResult result = compare(file, "band-ldlt:opencl,band-cholesky:cpu", 1e-7);
  REQUIRE(result.rows.size() == 2);
  CHECK(result.rows[0].status == RowStatus::Unavailable);
  CHECK(result.rows[0].message.find("not available") != std::string::npos);
  CHECK_FALSE(result.rows[0].agrees.has_value());
  CHECK(result.rows[1].status == RowStatus::Ok);
  CHECK(result.rows[1].reference);  // the first solver that ran is the reference

  std::ostringstream log;
  write_study(result, dir.path / "study", log);
  const auto records = csv_records(dir.path / "study/compare.csv");
  CHECK(records[0].at("status") == "unavailable");
  CHECK(records[0].at("time_setup_s").empty());
  CHECK(records[0].at("agrees").empty());
}

TEST_CASE("solver lists are checked") {
  CHECK(parse_combinations("cg:cpu,frontal:opencl").size() == 2);
  CHECK_THROWS_WITH_AS(parse_combination("cholesky:cpu"), doctest::Contains("unknown method"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("cg:gpu"), doctest::Contains("unknown device"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combinations("cg:cpu,cg:cpu"), doctest::Contains("twice"), std::invalid_argument);
  // An iterative row may name its preconditioner, so Jacobi and AMG sit in one comparison.
  const auto rows = parse_combinations("cg:cpu:jacobi,cg:cpu:amg,multifrontal:cpu");
  CHECK(rows[0].name() == "cg:cpu:jacobi");
  CHECK(*rows[1].preconditioner == Preconditioner::Amg);
  CHECK_FALSE(rows[2].preconditioner);
  CHECK(with_preconditioner(parse_combination("cg:cpu"), Preconditioner::Auto).name() == "cg:cpu:amg");
  CHECK(with_preconditioner(parse_combination("band-cholesky:cpu"), Preconditioner::Auto).name() == "band-cholesky:cpu");
  CHECK_THROWS_WITH_AS(parse_combination("band-cholesky:cpu:amg"), doctest::Contains("takes no preconditioner"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_combination("cg:cpu:ilu"), doctest::Contains("unknown preconditioner 'ilu'"),
                       std::invalid_argument);
}

TEST_CASE("a power law is fitted on log-log axes") {
  const PowerFit fit = fit_power_law({10, 100, 1000}, {2 * 1e3, 2 * 1e6, 2 * 1e9});  // y = 2 x^3
  CHECK(fit.exponent == doctest::Approx(3));
  CHECK(fit.coefficient == doctest::Approx(2));
  CHECK(fit.r_squared == doctest::Approx(1));
  CHECK(fit_power_law({10}, {1}).points == 1);
  const Spread s = spread_of({3, 1, 2, 10});
  CHECK(s.median == 2.5);
  CHECK(s.min == 1);
  CHECK(s.max == 10);
}

TEST_CASE("a sweep runs small to large, fits the growth and drops a solver past the budget") {
  TempDir dir;
  dir.write("box.yaml", kSmallBox);
  const auto file = dir.write("tiny.yaml", R"(title: tiny sweep
case: box.yaml
solvers: [band-cholesky:cpu, cg:cpu]
sizes: [[8, 4, 4], [4, 2, 2], [6, 3, 3]]
repeat: 2
tolerance: 1e-7
output: out
)");
  const StudyFile study = load_study(file);
  REQUIRE(study.sizes.size() == 3);
  CHECK(study.sizes[0].label == "4x2x2");  // sorted small to large
  CHECK(study.output == dir.path / "out");
  std::ostringstream log;
  const StudyResult result = run_sweep(study, "fem sweep tiny.yaml", log);
  REQUIRE(result.rows.size() == 6);
  CHECK(result.rows[0].dofs < result.rows[2].dofs);
  for (const auto& row : result.rows) CHECK(row.status == RowStatus::Ok);
  REQUIRE(result.fits.size() == 2);
  CHECK(result.fits[0].time.points == 3);
  CHECK(result.fits[0].memory.exponent > 0.9);  // band storage grows at least like n
  write_study(result, study.output, log);
  for (const char* name : {"compare.csv", "compare.json", "report.md"}) CHECK_MESSAGE(fs::exists(study.output / name), name);
  CHECK(slurp(study.output / "report.md").find("Growth with the problem size") != std::string::npos);
  const auto json = nlohmann::json::parse(slurp(study.output / "compare.json"));
  CHECK(json["kind"] == "sweep");
  CHECK(json["fits"][0]["time"].contains("exponent"));

  // A budget no solve can meet: each solver runs at the smallest size only, then is skipped.
  dir.write("strict.yaml", slurp(file) + "budget: {time_s: 1e-9}\n");
  const StudyResult strict = run_sweep(load_study(dir.path / "strict.yaml"), "fem sweep strict.yaml", log);
  REQUIRE(strict.rows.size() == 6);
  // The smallest size runs once; band-cholesky reports progress a block column, so the budget may
  // stop it there already.
  CHECK((strict.rows[0].status == RowStatus::Ok || strict.rows[0].status == RowStatus::OverBudget));
  CHECK((strict.rows[0].note + strict.rows[0].message).find("time budget") != std::string::npos);
  CHECK(strict.rows[0].repeats <= 1);  // no repeats past the budget
  for (std::size_t i = 2; i < 6; ++i) {
    CHECK(strict.rows[i].status == RowStatus::Skipped);
    CHECK(strict.rows[i].message.find("time budget") != std::string::npos);
  }
}

TEST_CASE("the budget ledger predicts from the growth so far and refuses what would pass the budget") {
  BudgetLedger ledger({10.0, 0.0});
  CHECK(ledger.refusal("cg:cpu/rcm", 1'000'000).empty());  // nothing measured yet
  CHECK(ledger.record("cg:cpu/rcm", 1000, 1.0, 0).empty());
  CHECK(ledger.predicted_seconds("cg:cpu/rcm", 4000) == doctest::Approx(4.0));  // linear from one point
  CHECK(ledger.record("cg:cpu/rcm", 2000, 4.0, 0).empty());
  CHECK(ledger.predicted_seconds("cg:cpu/rcm", 4000) == doctest::Approx(16.0));  // the fit's square law
  CHECK(ledger.refusal("cg:cpu/rcm", 3000).empty());                           // 9 s
  CHECK(ledger.refusal("cg:cpu/rcm", 4000).find("predicted 16 s at 4,000 dofs") != std::string::npos);
  CHECK(ledger.refusal("frontal:cpu/rcm", 4000).empty());  // per combination
  ledger.record_stopped("frontal:cpu/rcm", 5000, 10.2);
  CHECK(ledger.refusal("frontal:cpu/rcm", 100).find("stopped over the time budget") != std::string::npos);
}

namespace {

// A sweep of CG without a preconditioner over `sizes` (a box of 144k dofs takes 1 to 15 s of CG on
// today's machines, by load and cores), with `budget_s` seconds per solve (as a study file writes
// it): its rows, how long it took and its log.
struct BudgetSweep {
  StudyResult result;
  double seconds = 0;
  std::string log;
};

BudgetSweep budget_sweep(const std::string& sizes, const std::string& budget_s) {
  TempDir dir;
  dir.write("box.yaml", kSmallBox);
  const auto file = dir.write("budget.yaml", R"(title: budget sweep
case: box.yaml
solvers: [cg:cpu]
sizes: )" + sizes + R"(
budget: {time_s: )" + budget_s + R"(}
solver: {preconditioner: none, tolerance: 1e-14}
output: out
)");
  std::ostringstream log;
  const Stopwatch sweep;
  BudgetSweep done;
  done.result = run_sweep(load_study(file), "fem sweep budget.yaml", log);
  done.seconds = sweep.seconds();
  done.log = log.str();
  return done;
}

}  // namespace

TEST_CASE("a sweep with a 5 s budget finishes within about twice its budget") {
  const auto [result, seconds, log] = budget_sweep("[[6, 3, 3], [56, 28, 28]]", "5");
  CAPTURE(log);
  CHECK(seconds < 10);
  REQUIRE(result.rows.size() == 2);
  CHECK(result.rows[0].status == RowStatus::Ok);
  // On a fast machine the large solve fits in the budget; otherwise it is skipped from the growth
  // so far or stopped at the budget. The budget is checked at the solver's progress calls (every
  // twentieth of it), so a solve that ends between two of them may pass it by that much.
  if (result.rows[1].status == RowStatus::Ok)
    CHECK(result.rows[1].time_solve_s.median <= 5.0 * 1.1);
  else
    CHECK((result.rows[1].status == RowStatus::OverBudget || result.rows[1].status == RowStatus::Skipped));
}

TEST_CASE("repeats stop where one more would take the row past the time budget, and are bounded") {
  TempDir dir;
  dir.write("box.yaml", kSmallBox);
  const auto study = [](const std::string& repeat) {
    return "title: many repeats\ncase: box.yaml\nsolvers: [cg:cpu]\nsizes: [[6, 3, 3]]\nrepeat: " + repeat +
           "\nbudget: {time_s: 0.5}\noutput: out\n";
  };
  std::ostringstream log;
  const auto result = run_sweep(load_study(dir.write("repeats.yaml", study("1000"))), "fem sweep", log);
  REQUIRE(result.rows.size() == 1);
  CHECK(result.rows[0].status == RowStatus::Ok);
  CHECK(result.rows[0].repeats >= 1);
  CHECK(result.rows[0].repeats < 1000);  // each small solve takes far more than 0.5 ms
  CHECK(result.rows[0].repeats * result.rows[0].time_solve_s.min <= 0.5 * 1.5);
  CHECK_THROWS_WITH_AS(load_study(dir.write("too_many.yaml", study("1000000000"))),
                       doctest::Contains("'repeat' must be 1 to 1000"), CaseError);
}

TEST_CASE("a solve that runs past its budget is stopped and recorded as over budget") {
  // One size: no growth to predict from, so the solve starts; it takes several times the budget.
  const auto [result, seconds, log] = budget_sweep("[[56, 28, 28]]", "1");
  CAPTURE(log);
  CHECK(seconds < 8);
  REQUIRE(result.rows.size() == 1);
  CHECK(result.rows[0].status == RowStatus::OverBudget);
  CHECK(result.rows[0].message.find("over the time budget of 1 s") != std::string::npos);
}

TEST_CASE("agreement is checked against one reference solver, which a sweep keeps for every size") {
  TempDir dir;
  const Case c = load_case(dir.write("box.yaml", kSmallBox));
  const Mesh mesh = make_mesh(c.mesh);
  CompareSettings settings;
  settings.combinations = parse_combinations("band-cholesky:cpu,cg:cpu");
  settings.renumberings = {"rcm"};
  settings.progress = false;
  BudgetLedger ledger(settings.budget);
  std::ostringstream log;
  // The reference chosen at an earlier size comes second in the list: it still is the reference.
  std::string reference = budget_key("cg:cpu:amg", "rcm");  // rows name the preconditioner they used (auto: amg)
  auto rows = compare_on_mesh(c, mesh, settings, "6x3x3", ledger, reference, log);
  REQUIRE(rows.size() == 2);
  CHECK_FALSE(rows[0].reference);
  CHECK(rows[1].reference);
  CHECK(*rows[0].agrees);
  CHECK(*rows[1].max_rel_diff == 0);
  // Where the reference was not solved, no row is said to agree with anything.
  reference = budget_key("frontal:cpu", "rcm");
  rows = compare_on_mesh(c, mesh, settings, "6x3x3", ledger, reference, log);
  for (const auto& row : rows) {
    CHECK(row.status == RowStatus::Ok);
    CHECK_FALSE(row.agrees.has_value());
    CHECK_FALSE(row.reference);
  }
  CHECK(log.str().find("no reference here: frontal:cpu") != std::string::npos);
}

TEST_CASE("a bad study file is named with its line") {
  TempDir dir;
  dir.write("box.yaml", kSmallBox);
  const auto message = [&](const std::string& text) {
    const auto file = dir.write("bad.yaml", text);
    try {
      load_study(file);
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    FAIL("the study file should have been refused");
    return std::string();
  };
  CHECK(message("case: box.yaml\nsolvers: [cg:cpu]\nsizes: [[2, 2, 2]]\nrepeats: 3\n").find("bad.yaml:4: unknown key 'repeats'") !=
        std::string::npos);
  CHECK(message("case: box.yaml\nsolvers: [cg:cpu, lu:cpu]\nsizes: [[2, 2, 2]]\n").find("bad.yaml:2: in 'solvers'") !=
        std::string::npos);
  CHECK(message("case: box.yaml\nsolvers: [cg:cpu]\nsizes:\n  - [2, 2]\n").find("bad.yaml:4: each size of a box case") !=
        std::string::npos);
  CHECK(message("case: nowhere.yaml\nsolvers: [cg:cpu]\nsizes: [[2, 2, 2]]\n").find("bad.yaml:1: the case does not load") !=
        std::string::npos);
}

TEST_CASE("fem compare on the command line: usage errors exit 2, a study exits 0") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kSmallBox);
  const std::string fem = FEM_EXECUTABLE;
  const std::string quiet = " > " + (dir.path / "out.txt").string() + " 2> " + (dir.path / "err.txt").string();
  CHECK(WEXITSTATUS(std::system((fem + " compare " + file.string() + " --solvers lu:cpu" + quiet).c_str())) == 2);
  CHECK(slurp(dir.path / "err.txt").find("unknown method 'lu'") != std::string::npos);
  CHECK(std::system((fem + " compare " + file.string() + " --solvers cg:cpu,frontal:cpu --repeat 2 --output " +
                     (dir.path / "cmp").string() + quiet)
                        .c_str()) == 0);
  CHECK(fs::exists(dir.path / "cmp/compare.csv"));
  CHECK(slurp(dir.path / "out.txt").find("frontal:cpu") != std::string::npos);
}

TEST_CASE("an interrupted re-run of a sweep keeps the earlier run's sizes it has not measured again") {
  TempDir dir;
  const auto sweep_of = [](const std::vector<std::pair<std::string, std::int64_t>>& sizes) {
    StudyResult result;
    result.kind = "sweep";
    result.study_file = "/studies/s.yaml";
    for (const auto& [size, dofs] : sizes) {
      StudyRow row;
      row.solver = "cg";
      row.device = "cpu";
      row.renumber = "rcm";
      row.size = size;
      row.dofs = dofs;
      result.rows.push_back(row);
    }
    return result;
  };
  const auto rows_in_folder = [&] {
    std::map<std::string, std::int64_t> dofs_by_size;
    for (const auto& row : study_from_json(nlohmann::json::parse(slurp(dir.path / "compare.json"))).rows)
      dofs_by_size[row.size] = row.dofs;
    return dofs_by_size;
  };
  write_study_checkpoint(sweep_of({{"4x4x4", 375}, {"8x8x8", 2187}, {"16x16x16", 14739}}), dir.path);
  REQUIRE(rows_in_folder().size() == 3);

  // The re-run has measured the first size again (differently) when it is interrupted.
  write_study_checkpoint(sweep_of({{"4x4x4", 376}}), dir.path);
  const auto kept = rows_in_folder();
  REQUIRE(kept.size() == 3);
  CHECK(kept.at("4x4x4") == 376);  // the new measurement
  CHECK(kept.at("8x8x8") == 2187);  // the earlier run's, not measured again yet
  CHECK(kept.at("16x16x16") == 14739);

  // Another study's folder contents are not mixed in.
  auto other = sweep_of({{"2x2x2", 81}});
  other.study_file = "/studies/other.yaml";
  write_study_checkpoint(other, dir.path);
  CHECK(rows_in_folder().size() == 1);
}

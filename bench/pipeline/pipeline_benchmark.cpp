// `fem bench pipeline`: fem run's phases (mesh, renumber, assemble, solve as AMG setup and
// iterations, post, write) on cubes of growing size, each case, size, device and repeat in a
// fresh process (peak resident memory is per process), until a size is predicted or seen past
// the time or memory budget. Rates are set against a STREAM triad measured at the start.
#include "bench/pipeline/pipeline_benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/benchmark_command.hpp"
#include "bench/pipeline/fresh_process.hpp"
#include "bench/pipeline/pipeline_cases.hpp"
#include "bench/pipeline/pipeline_row.hpp"
#include "bench/pipeline/pipeline_table.hpp"
#include "bench/pipeline/single_run.hpp"
#include "support/stream_triad.hpp"
#include "fem/config.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/study/budget.hpp"
#include "fem/study/environment.hpp"
#include "support/host_memory.hpp"
#include "solvers/solver_table.hpp"

namespace fem::bench {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> cases = pipeline_case_names();
  std::vector<int> sizes = {20, 40, 60, 80, 100, 118, 140, 160, 200};
  std::vector<std::string> devices = {"cpu"};
  std::string output = "bench-pipeline";
  std::string write = "vtu";
  int repeat = 1;
  double time_budget_s = 120;
  double memory_budget_bytes = 0;  // 0: half the memory available at the start
  std::string single_case;         // set: this process is one run (the benchmark's child)
  std::vector<std::string> child_prefix;  // how this executable is told to run this benchmark
};

void add_options(CLI::App& app, Options& o) {
  app.description(
      "fem run's phases (mesh, renumber, assemble, AMG setup, iterations, post, write) on cubes of growing size, each "
      "run in a fresh process; times, elements/s, GB/s against a STREAM triad, write MB/s and peak memory per dof");
  std::vector<std::string> names = pipeline_case_names();
  add_list_option(app, "--cases", o.cases, "cases", CLI::IsMember(names));
  add_list_option(app, "--sizes", o.sizes, "n: n^3 hexahedra (tet10: element size 1/n), run smallest first",
                  CLI::Range(2, 1000));
  std::vector<std::string> devices;
  for (const char* d : solver_devices()) devices.emplace_back(d);
  add_list_option(app, "--devices", o.devices, "devices of CG + AMG", CLI::IsMember(devices));
  app.add_option("--output", o.output, "directory: pipeline.csv, pipeline.json and runs/ (each run's case, log, results)")
      ->capture_default_str();
  app.add_option("--write", o.write, "field files of each run: vtu (JSON only in a build without VTK) or none")
      ->check(CLI::IsMember({"vtu", "none"}))
      ->capture_default_str();
  add_checked_option(app, "--repeat", o.repeat, "runs per row (fresh processes; the median is shown)",
                     CLI::Range(1, 100));
  add_checked_option(app, "--time-budget", o.time_budget_s,
                     "seconds per run: a size predicted past it is not started, a run past it is stopped; no larger "
                     "sizes then (0: none)",
                     non_negative_number());
  add_checked_option(app, "--memory-budget", o.memory_budget_bytes,
                     "bytes of peak host memory per run, predicted from the last size's bytes per dof (0: half the "
                     "memory available at the start)",
                     non_negative_number());
  app.add_option("--single-case", o.single_case, "(internal) run this case file once: the benchmark's child process")
      ->group("");
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
}

// The runs of one row, each in its own process; `row` says how they ended.
std::vector<nlohmann::json> run_repeats(const Options& o, const PipelineCase& kind, PipelineRow& row,
                                        std::vector<double>& walls) {
  std::vector<nlohmann::json> summaries;
  for (int r = 0; r < o.repeat; ++r) {
    const fs::path dir = fs::path(o.output) / "runs" / (kind.name + "-" + std::to_string(row.n) + "-" + row.device) /
                         ("r" + std::to_string(r + 1));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path case_file = write_pipeline_case(kind, row.n, row.device, dir);
    std::vector<std::string> arguments = o.child_prefix;
    arguments.insert(arguments.end(), {"--single-case", case_file.string(), "--write", o.write});
    const ProcessOutcome outcome = run_this_executable(arguments, dir / "run.log", o.time_budget_s);
    if (outcome.end == ProcessOutcome::End::OverTime) {
      row.status = "over budget";
      row.note = "stopped after " + seconds_text(outcome.wall_s) + ", past the time budget: no larger sizes";
      return {};
    }
    if (outcome.exit_code != 0) {
      const bool unavailable = fs::exists(dir / "unavailable.txt");
      row.status = unavailable ? "unavailable" : "failed";
      row.note = last_line(unavailable ? dir / "unavailable.txt" : dir / "run.log") + " (" + (dir / "run.log").string() + ")";
      return {};
    }
    std::ifstream in(dir / "results" / (case_file.stem().string() + ".json"));
    summaries.push_back(nlohmann::json::parse(in));
    walls.push_back(outcome.wall_s);
  }
  return summaries;
}

// Sizes from small to large until one does not run or passes the budget. A case or device that
// cannot run here at all is one row (n = 0) that says why.
void run_sizes(const Options& o, const PipelineCase& kind, const std::string& device, double memory_budget,
               study::BudgetLedger& ledger, PipelineTable& table) {
  PipelineRow row;
  row.case_name = kind.name;
  row.device = device;
  if (const std::string why = solver_unavailable_reason(SolverMethodId::Cg, parse_choice<Device>(device).value()); !why.empty()) {
    row.status = "unavailable";
    row.note = why;
    return table.add(kind, row);
  }
  if (kind.needs_gmsh && !FEM_WITH_GMSH) {
    row.status = "skipped";
    row.note = "this build has no Gmsh (configure with FEM_WITH_GMSH=ON) to mesh the box .geo";
    return table.add(kind, row);
  }
  const std::string key = kind.name + ":" + device;
  double bytes_per_dof = 0;  // the last size's peak: the memory prediction
  for (const int n : o.sizes) {
    row = PipelineRow();
    row.case_name = kind.name;
    row.device = device;
    row.n = n;
    const std::int64_t dofs = kind.estimated_dofs(n);
    const double predicted_bytes = bytes_per_dof * static_cast<double>(dofs);
    if (const std::string refusal = ledger.refusal(key, dofs); !refusal.empty()) {
      row.status = "over budget";
      row.note = refusal;
    } else if (predicted_bytes > memory_budget) {
      row.status = "over budget";
      row.note = "predicted peak " + human_bytes(predicted_bytes) + " at about " + with_commas(dofs) +
                 " dofs, over the memory budget (" + human_bytes(memory_budget) + ")";
    } else {
      std::vector<double> walls;
      const auto summaries = run_repeats(o, kind, row, walls);
      if (!summaries.empty()) {
        summarise_runs(row, summaries, walls);
        row.note = ledger.record(key, row.sizes.dofs, row.wall_s, row.peak_host_bytes);
        bytes_per_dof = row.peak_host_bytes / static_cast<double>(row.sizes.dofs);
      }
    }
    table.add(kind, row);
    if (row.status != "ok" || !row.note.empty()) return;  // the largest that fits was the one before, or this
  }
}

void run(Options& o) {
  if (!o.single_case.empty()) {
    run_single_case(o.single_case, o.write);
    return;
  }
  std::sort(o.sizes.begin(), o.sizes.end());
  fs::create_directories(o.output);
  const double memory_budget =
      o.memory_budget_bytes > 0 ? o.memory_budget_bytes : 0.5 * static_cast<double>(host_available_memory());
  const double triad = stream_triad_bytes_per_second();
  std::printf("fem bench pipeline: %d threads; STREAM triad %.1f GB/s (the limit %%tri compares with); budget per run "
              "%s, %s peak host memory; field files: %s%s\n",
              omp_get_max_threads(), triad / 1e9, o.time_budget_s > 0 ? seconds_text(o.time_budget_s).c_str() : "no time limit",
              human_bytes(memory_budget).c_str(), o.write.c_str(),
              o.write == "vtu" && !FEM_WITH_VTK ? " (this build has no VTK: the JSON summary alone, write 0 MB)" : "");
  std::printf("setup: the solver's setup (AMG hierarchy, and the copy to the device on cuda); iter: its iterations "
              "(its); total: the phases' sum; wall: the process's; B/dof: peak host memory per dof; dev: device memory "
              "per dof where the solver reports it\n");

  PipelineTable table(triad);
  study::BudgetLedger ledger({o.time_budget_s, memory_budget});
  for (const std::string& name : o.cases) {
    const PipelineCase& kind = find_pipeline_case(name);
    table.start_case(kind);
    for (const std::string& device : o.devices) run_sizes(o, kind, device, memory_budget, ledger, table);
  }
  nlohmann::json about = {{"benchmark", "pipeline"},
                          {"environment", study::study_environment()},
                          {"threads", omp_get_max_threads()},
                          {"triad_GBps", triad / 1e9},
                          {"time_budget_s", o.time_budget_s},
                          {"memory_budget_bytes", memory_budget},
                          {"write", o.write},
                          {"repeat", o.repeat},
                          {"traffic_model", "bench/pipeline/phase_traffic.hpp: lower bounds"}};
  table.write(o.output, about);
}

}  // namespace

int run_pipeline_benchmark(int argc, char** argv) {
  // Under `fem bench` argv[0] is the benchmark's name; the standalone program is called by its path.
  std::vector<std::string> prefix;
  if (std::string(argv[0]) == "pipeline") prefix = {"bench", "pipeline"};
  return run_benchmark<Options>(
      "pipeline", argc, argv, [&](CLI::App& app, Options& o) {
        add_options(app, o);
        o.child_prefix = prefix;
      },
      [](Options& o) { run(o); });
}

}  // namespace fem::bench

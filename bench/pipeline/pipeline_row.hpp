#pragma once
// One row of `fem bench pipeline`: a case at one size on one device, from the JSON summaries of
// its repeated runs (fem run's own: time_s per phase, solver_time_s, write, peak_memory_bytes).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/pipeline/phase_traffic.hpp"

namespace fem::bench {

struct PipelineRow {
  std::string case_name, device;
  int n = 0;
  std::string status = "ok";  // ok | unavailable | skipped | over budget | failed
  std::string note;
  int repeats = 0;
  RunSizes sizes;
  int iterations = 0;
  std::map<std::string, double> phase_s;  // mesh, renumber, assemble, solve, post, write: medians
  double setup_s = 0, iterate_s = 0;      // the solve's setup (AMG) and iterations: medians
  double total_s = 0;                     // the phases' sum, median over the repeats
  double wall_s = 0;                      // the process's, start to exit: median
  double write_bytes = 0;
  double peak_host_bytes = 0;    // the largest over the repeats
  // The process's peak as each phase ended (fem run's peak_memory_after_phase_bytes): the largest
  // over the repeats; what a phase added is its value less the phase's before.
  std::map<std::string, double> peak_after_phase_bytes;
  double device_bytes = 0;       // 0 where the solver reports none
  double phase(const std::string& name) const;       // phase_s's entry, 0 where the run had none
  double peak_after(const std::string& name) const;  // peak_after_phase_bytes's entry, 0 where none
};

// Fills `row`'s figures from the repeats' summaries and process wall times (both non-empty).
void summarise_runs(PipelineRow& row, const std::vector<nlohmann::json>& summaries, const std::vector<double>& walls);

}  // namespace fem::bench

#include "fem/pipeline/run_summary.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

#include "fem/config.hpp"
#include "fem/pipeline/number_format.hpp"

namespace fem {

using nlohmann::json;

std::string spmv_tuning_source(const SolveReport& report) {
  const auto& f = report.figures;
  if (f.count("spmv_tuning_cached") && f.at("spmv_tuning_cached") > 0) return "cache";
  return f.count("spmv_tuning_timed") && f.at("spmv_tuning_timed") > 0 ? "timed" : "model";
}

json summary_head(const Case& c, const Mesh& mesh, const Problem& problem, const NodeOrdering& order, std::int64_t dofs,
                  std::int64_t nnz) {
  json summary;
  summary["fem_version"] = FEM_VERSION;
  summary["case"] = c.file.string();
  summary["title"] = c.title;
  summary["physics"] = problem.physics.type == PhysicsType::Heat ? "heat" : "elasticity";
  summary["nodes"] = mesh.num_nodes();
  summary["elements"] = mesh.cells.size();
  summary["dofs"] = dofs;
  summary["nnz"] = nnz;
  summary["renumber"] = order.method;
  summary["bandwidth"] = {{"before", order.before.bandwidth}, {"after", order.after.bandwidth}};
  summary["profile"] = {{"before", order.before.profile}, {"after", order.after.profile}};
  summary["max_wavefront"] = {{"before", order.before.max_wavefront}, {"after", order.after.max_wavefront}};
  summary["rms_wavefront"] = {{"before", order.before.rms_wavefront}, {"after", order.after.rms_wavefront}};
  summary["solver"] = c.solver.method;
  summary["device"] = c.solver.device;
  summary["preconditioner"] = name_of(c.solver.preconditioner);
  summary["precision"] = name_of(c.solver.precision);
  summary["threads"] = omp_get_max_threads();
  return summary;
}

json run_summary(const RunRecord& r) {
  const SolveReport& report = r.solve.report;
  json summary = summary_head(r.run_case, r.mesh, r.problem, r.ordering, r.dofs, r.nnz);
  summary["iterations"] = report.iterations;
  summary["residual"] = r.solve.residual;
  summary["residual_history"] = report.residual_history;
  summary["solver_figures"] = report.figures;
  summary["solver_time_s"] = {{"setup", report.time_setup_s}, {"solve", report.time_solve_s}};
  if (report.figures.count("spmv_tuning_s")) {  // of the setup: choosing the GPU's SpMV format
    summary["spmv_tuning_s"] = report.figures.at("spmv_tuning_s");
    summary["spmv_tuning_source"] = spmv_tuning_source(report);
  }

  const int d = r.problem.physics.dofs_per_node();
  json reactions = json::object();
  for (const auto& [group, force] : r.results.group_reactions)
    reactions[group] = d == 1 ? json(force[0]) : json(std::vector<double>(force.begin(), force.begin() + d));
  summary["reactions"] = reactions;
  const NodalResults& results = r.results;
  if (r.problem.physics.type == PhysicsType::Elasticity) {
    double umax = 0, vmax = 0;
    for (std::size_t n = 0; n < r.mesh.num_nodes(); ++n) {
      umax = std::max(umax, std::hypot(results.displacement[3 * n], results.displacement[3 * n + 1],
                                       results.displacement[3 * n + 2]));
      vmax = std::max(vmax, results.von_mises[n]);
    }
    summary["max_displacement"] = umax;
    summary["max_von_mises"] = vmax;
  } else {
    const auto [lo, hi] = std::minmax_element(results.temperature.begin(), results.temperature.end());
    summary["temperature_range"] = {*lo, *hi};
  }
  return summary;
}

void print_run_summary(std::ostream& log, const json& summary, const std::string& results_directory) {
  const auto row = [&](const char* label) -> std::ostream& { return log << "  " << std::left << std::setw(22) << label; };
  const auto count = [&](const char* key) { return with_commas(summary[key].get<long long>()); };
  log << "\n";
  row("equations") << count("dofs") << "\n";
  row("nonzeros") << count("nnz") << "\n";
  row("bandwidth") << with_commas(summary["bandwidth"]["before"].get<long long>()) << " -> "
                   << with_commas(summary["bandwidth"]["after"].get<long long>()) << " ("
                   << summary["renumber"].get<std::string>() << ")\n";
  row("solver") << summary["solver"].get<std::string>() << " on " << summary["device"].get<std::string>() << "\n";
  row("residual") << std::scientific << std::setprecision(2) << summary["residual"].get<double>() << std::defaultfloat
                  << "\n";
  if (summary.contains("max_displacement")) {
    row("max |displacement|") << summary["max_displacement"].get<double>() << "\n";
    row("max von Mises") << summary["max_von_mises"].get<double>() << "\n";
  } else if (summary.contains("temperature_range")) {
    row("temperature") << summary["temperature_range"][0].get<double>() << " .. "
                       << summary["temperature_range"][1].get<double>() << "\n";
  }
  double total = 0;
  for (const auto& [phase, seconds] : summary["time_s"].items()) total += seconds.get<double>();
  row("time") << std::fixed << std::setprecision(2) << total << " s\n";
  row("peak memory") << std::setprecision(1) << summary["peak_memory_bytes"].get<double>() / 1048576.0 << " MiB"
                     << std::defaultfloat << "\n";
  row("results") << results_directory << "\n";
}

}  // namespace fem

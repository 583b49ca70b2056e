#include "fem/pipeline/run_summary.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "fem/config.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/post/heat_balance.hpp"
#include "fem/post/load_balance.hpp"

namespace fem {

using nlohmann::json;

std::string spmv_tuning_source(const SolveReport& report) {
  const auto& f = report.figures;
  if (f.count("spmv_tuning_cached") && f.at("spmv_tuning_cached") > 0) return "cache";
  return f.count("spmv_tuning_timed") && f.at("spmv_tuning_timed") > 0 ? "timed" : "model";
}

std::string describe_solve(const SolverOptions& options, const SolveOutcome& outcome) {
  const SolveReport& report = outcome.report;
  std::ostringstream s;
  s << options.method << " on " << options.device;
  if (report.figures.count("amg_levels"))
    s << ", amg " << report.figures.at("amg_levels") << " levels (operator complexity " << std::fixed
      << std::setprecision(2) << report.figures.at("amg_operator_complexity") << std::defaultfloat << ")";
  s << ", setup " << std::fixed << std::setprecision(2) << report.time_setup_s << " s + solve " << report.time_solve_s
    << " s" << std::defaultfloat;
  if (report.iterations > 0) s << ", " << report.iterations << " iterations";
  if (report.figures.count("spmv_tuning_s"))
    s << ", SpMV tuning " << std::fixed << std::setprecision(2) << report.figures.at("spmv_tuning_s") << " s ("
      << spmv_tuning_source(report) << ")" << std::defaultfloat;
  s << ", residual " << std::scientific << std::setprecision(2) << outcome.residual;
  if (!outcome.verdict.converged) s << " (short of the tolerance " << std::setprecision(1) << options.tolerance << ")";
  return s.str();
}

json summary_head(const Case& c, const Mesh& mesh, const Problem& problem, const NodeOrdering& order, std::int64_t dofs,
                  std::int64_t nnz) {
  json summary;
  summary["fem_version"] = FEM_VERSION;
  summary["case"] = c.file.string();
  summary["title"] = c.title;
  summary["physics"] = problem.physics.type == PhysicsType::Heat ? "heat" : "elasticity";
  summary["nodes"] = mesh.num_nodes();
  summary["dimension"] = mesh.dimension;
  summary["elements"] = mesh.cells.size();
  summary["dofs"] = dofs;
  summary["nnz"] = nnz;
  summary["renumber"] = order.method;
  summary["bandwidth"] = {{"before", order.before.bandwidth}, {"after", order.after.bandwidth}};
  summary["profile"] = {{"before", order.before.profile}, {"after", order.after.profile}};
  summary["max_wavefront"] = {{"before", order.before.max_wavefront}, {"after", order.after.max_wavefront}};
  summary["rms_wavefront"] = {{"before", order.before.rms_wavefront}, {"after", order.after.rms_wavefront}};
  summary["solver"] = name_of(c.solver.method);
  if (!c.solver.method_chosen_because.empty()) {
    summary["solver_chosen_by"] = "auto";
    summary["solver_chosen_because"] = c.solver.method_chosen_because;
  }
  summary["device"] = name_of(c.solver.device);
  summary["preconditioner"] = name_of(effective_preconditioner(c.solver.preconditioner));
  if (c.solver.preconditioner == Preconditioner::Auto) summary["preconditioner_chosen_by"] = "auto";
  summary["precision"] = name_of(c.solver.precision);
  summary["threads"] = omp_get_max_threads();
  return summary;
}

void add_solve_summary(json& summary, const SolveOutcome& solve) {
  const SolveReport& report = solve.report;
  summary["iterations"] = report.iterations;
  summary["residual"] = solve.residual;
  summary["converged"] = solve.verdict.converged;
  if (!solve.verdict.converged) summary["not_converged_because"] = solve.verdict.reason;
  summary["residual_history"] = report.residual_history;
  summary["solver_figures"] = report.figures;
  summary["solver_time_s"] = {{"setup", report.time_setup_s}, {"solve", report.time_solve_s}};
  if (report.figures.count("spmv_tuning_s")) {  // of the setup: choosing the GPU's SpMV format
    summary["spmv_tuning_s"] = report.figures.at("spmv_tuning_s");
    summary["spmv_tuning_source"] = spmv_tuning_source(report);
  }
}

json group_reactions_summary(const std::map<std::string, std::array<double, 3>>& group_reactions, int dofs_per_node) {
  json reactions = json::object();
  for (const auto& [group, force] : group_reactions)
    reactions[group] = dofs_per_node == 1 ? json(force[0])
                                          : json(std::vector<double>(force.begin(), force.begin() + dofs_per_node));
  return reactions;
}

json run_summary(const RunRecord& r) {
  json summary = summary_head(r.run_case, r.mesh, r.problem, r.ordering, r.dofs, r.nnz);
  add_solve_summary(summary, r.solve);
  summary["reactions"] = group_reactions_summary(r.results.group_reactions, r.problem.physics.dofs_per_node());
  if (r.problem.physics.axisymmetric()) summary["reactions_per"] = "full ring (2π)";  // loads and reactions alike
  const NodalResults& results = r.results;
  if (r.problem.physics.type == PhysicsType::Elasticity) {
    const std::size_t nn = r.mesh.num_nodes();
    // A nodal quantity's largest value (sign -1: its smallest), and where: the node (the .vtu's
    // point id) and its coordinates. Of nodes within rounding of it (a uniform field), the first:
    // the place does not move with the last bits of a solver's answer.
    const auto extreme = [&](const char* key, double sign, auto value_at) {
      std::size_t at = 0;
      for (std::size_t n = 1; n < nn; ++n)
        if (sign * value_at(n) > sign * value_at(at)) at = n;
      const double within = 1e-9 * std::abs(value_at(at));
      for (std::size_t n = 0; n < at; ++n)
        if (sign * (value_at(at) - value_at(n)) <= within) {
          at = n;
          break;
        }
      summary[key] = nn ? value_at(at) : 0.0;
      const double* x = nn ? &r.mesh.coords[3 * at] : nullptr;
      summary[std::string(key) + "_at"] = {{"node", at}, {"x", nn ? std::vector<double>(x, x + 3) : std::vector<double>(3)}};
    };
    extreme("max_displacement", 1, [&](std::size_t n) {
      return std::hypot(results.displacement[3 * n], results.displacement[3 * n + 1], results.displacement[3 * n + 2]);
    });
    extreme("max_von_mises", 1, [&](std::size_t n) { return results.von_mises[n]; });
    extreme("max_tresca", 1, [&](std::size_t n) { return results.tresca[n]; });
    extreme("max_principal_stress", 1, [&](std::size_t n) { return results.principal_stress[3 * n]; });
    extreme("min_principal_stress", -1, [&](std::size_t n) { return results.principal_stress[3 * n + 2]; });

    const LoadBalance balance = load_balance(r.problem, results.reaction, r.run_case.output.moments_about);
    const auto resultant = [](const Resultant& x) { return json{{"force", x.force}, {"moment", x.moment}}; };
    json groups = json::object();
    for (const auto& [group, x] : balance.groups) groups[group] = resultant(x);
    summary["moments_about"] = balance.about;
    summary["group_resultants"] = groups;
    summary["applied_total"] = resultant(balance.applied);
    summary["reaction_total"] = resultant(balance.reactions);
    summary["balance"] = balance.balance;
  } else {
    const auto [lo, hi] = std::minmax_element(results.temperature.begin(), results.temperature.end());
    summary["temperature_range"] = {*lo, *hi};
    const HeatBalance balance = heat_balance(r.problem, results.temperature, results.reaction, results.body_load[0]);
    summary["heat_in_total"] = balance.applied;
    summary["reaction_total"] = balance.reactions;
    summary["balance"] = balance.balance;
  }
  return summary;
}

namespace {

// (x, y, z) with four significant figures and the unit once; 2D: (x, y).
std::string vector_text(const std::vector<double>& v, const std::string& unit, int dimension) {
  std::string text = "(";
  for (int k = 0; k < dimension; ++k) {
    char number[24];
    std::snprintf(number, sizeof number, "%.4g", v[k]);
    text += (k ? ", " : "") + std::string(number);
  }
  return text + ") " + unit;
}

// The reactions table: force and moment per fixed group, their total, the applied total and the
// balance. 2D moments are about z only.
void print_reactions(std::ostream& log, const json& summary) {
  const int dim = summary["dimension"].get<int>();
  const auto about = summary["moments_about"].get<std::vector<double>>();
  const auto line = [&](const std::string& label, const json& r) {
    auto moment = r["moment"].get<std::vector<double>>();
    log << "    " << std::left << std::setw(20) << label << std::setw(44)
        << vector_text(r["force"].get<std::vector<double>>(), "N", dim)
        << (dim == 2 ? with_unit(moment[2], "N m", true) : vector_text(moment, "N m", 3)) << "\n";
  };
  log << "  reactions             force, and moment about " << vector_text(about, "m", dim);
  if (summary.contains("reactions_per"))
    log << "; per " << summary["reactions_per"].get<std::string>() << ": radial forces and moments cancel around it";
  log << "\n";
  for (const auto& [group, r] : summary["group_resultants"].items()) line(group, r);
  line("total", summary["reaction_total"]);
  line("applied", summary["applied_total"]);
  char balance[32];
  std::snprintf(balance, sizeof balance, "%.2e", summary["balance"].get<double>());
  log << "    " << std::left << std::setw(20) << "balance" << balance << " (|reactions + applied| / |applied|)\n";
}

}  // namespace

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
                  << (summary.value("converged", true) ? "" : "  NOT CONVERGED (see not_converged_because in the JSON)")
                  << "\n";
  if (summary.contains("max_displacement")) {
    const auto where = [&](const char* key) {
      const json& at = summary[std::string(key) + "_at"];
      const auto x = at["x"].get<std::vector<double>>();
      return " at node " + std::to_string(at["node"].get<long long>()) + " " + vector_text(x, "m", summary["dimension"]);
    };
    const auto stress = [&](const char* key) { return with_unit(summary[key].get<double>(), "Pa", true); };
    row("max |displacement|") << with_unit(summary["max_displacement"].get<double>(), "m") << where("max_displacement") << "\n";
    row("max von Mises") << stress("max_von_mises") << where("max_von_mises") << "\n";
    row("max Tresca") << stress("max_tresca") << where("max_tresca") << "\n";
    row("principal stress") << stress("min_principal_stress") << " .. " << stress("max_principal_stress") << "\n";
    print_reactions(log, summary);
  } else if (summary.contains("temperature_range")) {
    row("temperature") << with_unit(summary["temperature_range"][0].get<double>(), "°C") << " .. "
                       << with_unit(summary["temperature_range"][1].get<double>(), "°C") << "\n";
    if (summary.contains("heat_in_total")) {
      log << "  heat flow             at the fixed temperatures, per group\n";
      for (const auto& [group, watts] : summary["reactions"].items())
        log << "    " << std::left << std::setw(20) << group << with_unit(watts.get<double>(), "W") << "\n";
      log << "    " << std::left << std::setw(20) << "total" << with_unit(summary["reaction_total"].get<double>(), "W") << "\n";
      log << "    " << std::left << std::setw(20) << "in" << with_unit(summary["heat_in_total"].get<double>(), "W")
          << " (sources, fluxes, convection at the solved temperatures)\n";
      char balance[32];
      std::snprintf(balance, sizeof balance, "%.2e", summary["balance"].get<double>());
      log << "    " << std::left << std::setw(20) << "balance" << balance << " (|reactions + in| / |in|)\n";
    }
  }
  double total = 0;
  for (const auto& [phase, seconds] : summary["time_s"].items()) total += seconds.get<double>();
  row("time") << std::fixed << std::setprecision(2) << total << " s\n";
  row("peak memory") << std::setprecision(1) << summary["peak_memory_bytes"].get<double>() / 1048576.0 << " MiB"
                     << std::defaultfloat << "\n";
  row("results") << results_directory << "\n";
}

}  // namespace fem

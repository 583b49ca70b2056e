#include "fem/pipeline/transient_run.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include "fem/analysis/transient_heat.hpp"
#include "fem/case/read_analysis.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/memory_watermark.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "fem/post/nodal_results.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

using nlohmann::json;

void require_transient_setup(const AnalysisInputs& in, const Executor& executor) {
  const Case& c = in.run_case;
  const std::string at = c.file.string() + ":" + std::to_string(c.analysis.line);
  if (executor.piece()) throw CaseError(at + ": a transient analysis runs in one process: start fem without mpirun");
  if (in.solver.uses_element_matrices())
    throw CaseError(at + ": a transient analysis prepares C/dt + theta K once and solves it every step, which " +
                    name_of(in.options.method) + " (element by element) cannot; choose band-cholesky, multifrontal or cg");
}

// The default: about 20 written steps besides the initial state.
int output_every(const AnalysisSpec& a) {
  return a.output_every > 0 ? a.output_every : std::max(1, (transient_steps(a) + 19) / 20);
}

// What every written step records: its time, temperature range and heat budget.
struct WrittenStep {
  int step = 0;
  double time = 0, t_min = 0, t_max = 0;
  HeatBudget budget;
};

ResultFields step_fields(const AnalysisInputs& in, const NodalResults& r) {
  ResultFields fields;
  fields.mesh = &in.mesh;
  fields.points.push_back({"temperature", 1, r.temperature});
  fields.points.push_back({"heat_flux", 3, r.heat_flux});
  CellArray material{"material", {}};
  material.values.assign(in.problem.cell_material.begin(), in.problem.cell_material.end());
  fields.cells.push_back(std::move(material));
  return fields;
}

ParaviewView series_view(const AnalysisInputs& in) {
  ParaviewView view;
  view.script_name = in.run_case.name + "-view.py";
  view.title = in.run_case.title;
  view.dimension = in.mesh.dimension;
  view.color_field = "temperature";
  view.color_label = "temperature [°C]";
  return view;
}

// The tables of (t, value) pairs the run followed, each with its values at the written times.
json time_tables(const HeatHistory& history, const std::vector<WrittenStep>& written) {
  json out = json::array();
  for (const TimeTable* table : history.tables()) {
    json at_times = json::array();
    for (const auto& w : written) at_times.push_back(table->value_at(w.time));
    out.push_back({{"key", table->key},
                   {"group", table->group},
                   {"times", table->times},
                   {"values", table->values},
                   {"at_written_times", at_times},
                   {"line", table->line}});
  }
  return out;
}

// "fem: tables ..." : which values follow tables and how a step reads them.
std::string tables_line(const HeatHistory& history) {
  std::string line = "fem: tables   ";
  const auto tables = history.tables();
  for (std::size_t i = 0; i < tables.size(); ++i)
    line += (i ? ", " : "") + tables[i]->name() + " (" + std::to_string(tables[i]->times.size()) + " pairs)";
  return line + "; linear between their times, held beyond; loads at theta f(t_n+1) + (1 - theta) f(t_n), "
                "temperatures at t_n+1\n";
}

json transient_summary(const AnalysisInputs& in, const DiscreteSystem& system, const HeatHistory& history,
                       const TransientReport& report,
                       const AnswerVerdict& verdict, const std::vector<WrittenStep>& written) {
  const Case& c = in.run_case;
  const AnalysisSpec& a = c.analysis;
  json summary = summary_head(c, in.mesh, in.problem, in.ordering, system.dofs().num_dofs(), system.nnz());
  summary["analysis"] = "transient";
  summary["theta"] = a.theta;
  summary["time_step"] = a.time_step;
  summary["end_time"] = a.end_time;
  summary["steps"] = report.steps;
  summary["output_every"] = output_every(a);
  summary["initial_temperature"] = a.initial_temperature;
  summary["mass"] = a.mass == MassLumping::Lumped ? "lumped" : "consistent";
  json times = json::array(), lows = json::array(), highs = json::array(), stored = json::array(),
       in_fixed = json::array(), in_loads = json::array();
  double lo = written.front().t_min, hi = written.front().t_max;
  for (const auto& w : written) {
    times.push_back(w.time);
    lows.push_back(w.t_min);
    highs.push_back(w.t_max);
    stored.push_back(w.budget.stored);
    in_fixed.push_back(w.budget.in_fixed);
    in_loads.push_back(w.budget.in_loads);
    lo = std::min(lo, w.t_min);
    hi = std::max(hi, w.t_max);
  }
  summary["times"] = times;
  summary["temperature_min"] = lows;
  summary["temperature_max"] = highs;
  summary["temperature_range"] = {lo, hi};  // over every written step
  summary["heat_budget"] = {{"stored", stored}, {"in_fixed", in_fixed}, {"in_loads", in_loads}};
  summary["time_tables"] = time_tables(history, written);
  if (!history.tables().empty())
    summary["time_tables_rule"] = "linear between a table's times, held beyond them; each step takes the loads at "
                                  "theta f(t_n+1) + (1 - theta) f(t_n) and the prescribed temperatures at t_n+1";
  summary["iterations"] = report.max_iterations;
  summary["residual"] = report.max_residual;  // the largest over the steps
  summary["converged"] = verdict.converged;
  if (!verdict.converged) summary["not_converged_because"] = verdict.reason;
  summary["reuses_preparation"] = report.reuses_preparation;
  summary["solver_figures"] = report.setup.figures;
  summary["solver_time_s"] = {{"setup", report.setup.time_setup_s},
                              {"per_step", report.time_steps_s / std::max(1, report.steps)},
                              {"solve_per_step", report.time_solves_s / std::max(1, report.steps)},
                              {"steps", report.time_steps_s}};
  return summary;
}

}  // namespace

json run_transient(const AnalysisInputs& in, Executor& executor, ResultSink& sink, PhaseLog& phases,
                   std::ostream& log) {
  require_transient_setup(in, executor);
  const Case& c = in.run_case;
  const AnalysisSpec& a = c.analysis;
  DiscreteSystem system(in.problem, in.graph, in.ordering);
  AssembledSystemData conduction;
  CsrMatrix capacity;
  std::optional<HeatHistory> history;
  phases.run("assemble", [&] {
    ProgressMeter progress(in.options);
    try {
      conduction = assemble(in.problem, system.dofs(), in.graph, AssemblyStrategy::Coloring, &progress);
      capacity = assemble_mass(in.problem, system.dofs(), in.graph, a.mass);
      history.emplace(in.problem, system.dofs());
    } catch (const InvertedElement& e) {
      throw CaseError(in.mesh.source + ": " + e.what());
    }
    return with_commas(system.dofs().num_dofs()) + " equations, " + with_commas(system.nnz()) + " nonzeros, " +
           with_commas(system.constraints().count) + " prescribed, " +
           (a.mass == MassLumping::Lumped ? "lumped" : "consistent") + " capacity";
  });
  if (!history->tables().empty()) log << tables_line(*history) << std::flush;

  // The steps' files are staged as they come and committed with the index and the JSON at the end.
  AtomicOutput output(c.output.directory);
  std::vector<SeriesEntry> entries;
  std::vector<WrittenStep> written;
  StagedFields staged;
  double field_seconds = 0;
  const TransientSettings settings{a.time_step, a.theta, a.initial_temperature, transient_steps(a), output_every(a)};
  const auto write_step = [&](const TransientState& state) {
    const Stopwatch writing;
    const NodalResults r = recover_results(in.problem, system.dofs(), system.constraints(), state.temperature);
    const auto [lo, hi] = std::minmax_element(r.temperature.begin(), r.temperature.end());
    written.push_back({state.step, state.time, *lo, *hi, state.budget});
    std::string entry;
    const StagedFields one = sink.stage_step(output, c.name, state.step, step_fields(in, r), entry);
    staged.bytes += one.bytes;
    staged.note = one.note;
    if (!entry.empty()) entries.push_back({state.time, entry});
    field_seconds += writing.seconds();
    char line[160];
    std::snprintf(line, sizeof line, "fem: step     %d/%d  t = %.4g s  temperature %.4g .. %.4g\n", state.step,
                  settings.steps, state.time, *lo, *hi);
    log << line << std::flush;
  };
  TransientReport report;
  phases.run("solve", [&] {
    report = solve_transient(conduction.matrix, capacity, *history, settings, in.solver, system.nodes(), write_step);
    char line[240];
    std::snprintf(line, sizeof line, "%d steps of %.4g s (theta %.2g) on %s %s: setup %.3g s once, %.3g s per step%s",
                  report.steps, a.time_step, a.theta, name_of(in.options.method), name_of(in.options.device),
                  report.setup.time_setup_s, report.time_steps_s / std::max(1, report.steps),
                  report.reuses_preparation ? "" : " (the solver repeats its set-up every step)");
    return std::string(line);
  });
  phases.set_time("solve", phases.times()["solve"].get<double>() - field_seconds);
  SolveReport judged;
  judged.unconverged = report.unconverged;
  const AnswerVerdict verdict = judge_answer(in.options, judged, report.max_residual, c.solver.require_convergence);
  if (!verdict.converged) log << "fem: NOT CONVERGED: " << verdict.reason << "\n";

  json summary = transient_summary(in, system, *history, report, verdict, written);
  phases.run("write", [&] {
    const Stopwatch writing;
    const StagedFields index = sink.stage_series(output, c.name, entries, series_view(in));
    field_seconds += writing.seconds();
    phases.set_time("write", field_seconds);
    phases.describe(summary);
    summary["write"] = {{"bytes", staged.bytes + index.bytes}, {"seconds", field_seconds}};
    summary["peak_memory_bytes"] = peak_memory_bytes();
    output.stage_text(c.name + ".json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    output.commit();
    char size[64];
    std::snprintf(size, sizeof size, " (%.1f MB, staged during the steps)", (staged.bytes + index.bytes) / 1e6);
    return c.name + ".pvd, " + std::to_string(entries.size()) + " x " + c.name + "_<step>.vtu, " + c.name + ".json" +
           (staged.note.empty() ? std::string(size) : " (" + staged.note + ")");
  });
  phases.set_time("write", field_seconds);
  phases.describe(summary);
  print_run_summary(log, summary, c.output.directory.string());
  return summary;
}

}  // namespace fem

#include "fem/study/comparison.hpp"

#include <algorithm>
#include <functional>
#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <numeric>
#include <optional>
#include <ostream>
#include <span>

#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/load_cases.hpp"
#include "fem/pipeline/memory_watermark.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/progress_line.hpp"
#include "fem/physics/problem.hpp"
#include "fem/study/energy_probe.hpp"
#include "fem/study/frequency_agreement.hpp"
#include "fem/study/system_cache.hpp"
#include "fem/analysis/modal_analysis.hpp"
#include "solvers/eigen/mode_residuals.hpp"
#include "solvers/eigen_table.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/solver_table.hpp"
#include "support/stopwatch.hpp"

namespace fem::study {
namespace {


std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s < 10 ? "%.3g s" : "%.1f s", s);
  return text;
}

// Factor size and fill from the solver's figures, where it reports a factor.
void factor_figures(const SolveReport& report, StudyRow& row) {
  const auto bytes = report.figures.find("factor_bytes");
  if (bytes == report.figures.end()) return;
  row.factor_bytes = bytes->second;
  const auto bits = report.figures.find("factor_precision_bits");
  const double entry_bytes = bits != report.figures.end() && bits->second > 0 ? bits->second / 8 : 8.0;
  const double lower_triangle = 0.5 * static_cast<double>(row.nnz + row.dofs);
  if (lower_triangle > 0) row.fill = bytes->second / entry_bytes / lower_triangle;
}

// Every solved row against the reference's solution, when the reference was solved here.
// `difference` measures an answer against the reference's (nodal values, or eigenvalues).
void compare_with_reference(std::vector<StudyRow>& rows, const std::vector<std::pair<std::size_t, std::vector<double>>>& solutions,
                            const std::string& reference, double tolerance,
                            double (*difference)(const std::vector<double>&, const std::vector<double>&), std::ostream& log) {
  const auto is_reference = [&](std::size_t row) {
    return budget_key(rows[row].combination(), rows[row].renumber) == reference;
  };
  const auto ref = std::find_if(solutions.begin(), solutions.end(), [&](const auto& s) { return is_reference(s.first); });
  if (ref == solutions.end()) {
    if (!solutions.empty()) log << "fem: agree    no reference here: " << reference << " was not solved at this size\n";
    return;
  }
  rows[ref->first].reference = true;
  int disagree = 0;
  for (const auto& [row, u] : solutions) {
    rows[row].max_rel_diff = difference(u, ref->second);
    rows[row].agrees = *rows[row].max_rel_diff <= tolerance;
    if (!*rows[row].agrees) {
      ++disagree;
      char line[64];
      std::snprintf(line, sizeof line, ": max rel diff %.2e", *rows[row].max_rel_diff);
      log << "fem: agree    " << rows[row].combination() << " (" << rows[row].renumber << ") DISAGREES" << line << "\n";
    }
  }
  char line[96];
  std::snprintf(line, sizeof line, "%zu of %zu solved rows within %.0e of ", solutions.size() - disagree, solutions.size(), tolerance);
  log << "fem: agree    " << line << reference << "\n" << std::flush;
}

// What the timed solves of a row measured, and the last solve's report.
struct Measured {
  std::vector<double> setup, solve, wall, energy;
  SolveReport report;
};

// Up to settings.repeat timed solves: `fresh` (untimed) readies solve number `rep` (a fresh
// solver, nothing carried over), `solve` is timed, with the memory it adds to the process and
// the device's energy. The repeats stop where one more would take the row past the time budget:
// a solve over it says enough, and many short ones must not add up to far more.
Measured timed_repeats(const CompareSettings& settings, Device device, Stopwatch& solving, StudyRow& row,
                       const std::function<void(int)>& fresh, const std::function<SolveReport()>& solve) {
  Measured m;
  EnergyProbe probe(device);
  for (int rep = 0; rep < settings.repeat; ++rep) {
    fresh(rep);
    reset_peak_memory();
    const auto resident_before = static_cast<double>(resident_memory_bytes());
    probe.start();
    solving.restart();
    m.report = solve();
    m.wall.push_back(solving.seconds());
    if (const auto joules = probe.stop_joules()) m.energy.push_back(*joules);
    const auto peak = static_cast<double>(peak_memory_bytes());
    row.process_peak_bytes = std::max(row.process_peak_bytes, peak);
    row.peak_memory_bytes = std::max(row.peak_memory_bytes, peak - resident_before);
    m.setup.push_back(m.report.time_setup_s);
    m.solve.push_back(m.report.time_solve_s);
    const double spent = std::accumulate(m.wall.begin(), m.wall.end(), 0.0);
    if (settings.budget.time_s > 0 && spent + spent / static_cast<double>(m.wall.size()) > settings.budget.time_s) break;
  }
  return m;
}

// A linear row: K u = f (every load case) by the combination's solver. Its answer is u in mesh
// order (comparable across renumberings), one load case after another.
std::vector<double> solve_linear_row(SystemCache& cache, const std::vector<LoadCase>& load_cases, const std::string& renumber,
                                     const Combination& combination, const SolverOptions& options,
                                     const CompareSettings& settings, Stopwatch& solving, StudyRow& row, Measured& measured,
                                     const std::string& label, std::ostream& log) {
  auto solver = make_solver(options);
  const bool by_elements = solver->uses_element_matrices();
  row.time_assemble_s = cache.prepare(renumber, combination.method, by_elements);
  DiscreteSystem& system = cache.system(renumber, combination.method);
  std::optional<LoadCaseSystem> cases_system;
  if (!load_cases.empty()) cases_system.emplace(system, load_cases, by_elements);
  const std::size_t n = static_cast<std::size_t>(system.dofs().num_dofs());
  row.rhs = cases_system ? cases_system->count() : 1;
  log << label << " ..." << "\n" << std::flush;
  std::vector<double> u;
  measured = timed_repeats(
      settings, combination.device, solving, row,
      [&](int rep) {
        if (rep > 0) solver = make_solver(options);
        u.assign(n * row.rhs, 0.0);
      },
      [&] {
        SolveReport report = cases_system ? cases_system->solve(*solver, u) : system.solve(*solver, u);
        if (!report.unconverged.empty()) throw SolveFailure(report.unconverged);
        return report;
      });
  // Each load case's residual as a run gives it; its solution in mesh order, one after another.
  std::vector<double> in_mesh_order;
  for (int k = 0; k < row.rhs; ++k) {
    const std::span<const double> one(u.data() + k * n, n);
    const double residual = cases_system ? cases_system->relative_residual(k, one) : system.relative_residual(by_elements, one);
    if (std::isnan(residual) || residual > row.residual) row.residual = residual;  // a NaN stays
    const auto ordered = system.in_mesh_order(one);
    in_mesh_order.insert(in_mesh_order.end(), ordered.begin(), ordered.end());
  }
  return in_mesh_order;
}

// An eigen row: the case's modes by the combination's eigen method, on K and M of this
// numbering. Its answer is the eigenvalues, ascending; the row gets the frequencies, and as its
// residual the largest ||K x - lambda M x|| / ||K x|| of the modes, recomputed.
std::vector<double> solve_eigen_row(SystemCache& cache, const Case& c, const std::string& renumber,
                                    const Combination& combination, SolverOptions options, const CompareSettings& settings,
                                    Stopwatch& solving, StudyRow& row, Measured& measured, const std::string& label,
                                    std::ostream& log) {
  const auto factorising = combination.factorising_method();
  if (const auto why = eigen_unavailable_reason(name_of(*combination.eigen_method), name_of(combination.device),
                                                factorising ? name_of(*factorising) : "");
      !why.empty())
    throw SolverUnavailable(why);
  const SolverMethodId goal = combination.method;
  AnalysisSpec analysis = c.analysis;
  analysis.method = *combination.eigen_method;
  const bool lanczos = analysis.method == EigenMethod::Lanczos;
  if (lanczos) options.method = combination.method;
  row.time_assemble_s = cache.prepare(renumber, goal, false);
  const DiscreteSystem& system = cache.system(renumber, goal);
  const CsrMatrix& k = system.assembled().matrix;
  const CsrMatrix& m = cache.mass(renumber, goal, analysis.mass);
  log << label << " ..." << "\n" << std::flush;
  std::unique_ptr<LinearSolver> solver;
  eigen::EigenResult modes;
  measured = timed_repeats(
      settings, combination.device, solving, row,
      [&](int) {
        if (lanczos) solver = make_solver(options);
      },
      [&] {
        const Stopwatch eigen_solve;
        modes = solve_eigen(k, m, solver.get(), system.nodes(), options.amg, options.device, analysis,
                            options.progress);
        // The solve is all the rest of the method (its linear solves, orthogonalisation and small
        // dense problems), so that setup + solve is what the row costs whatever the method counts.
        SolveReport report = modes.setup;
        report.time_solve_s = std::max(0.0, eigen_solve.seconds() - modes.setup.time_setup_s);
        report.figures["eigen_linear_solve_s"] = modes.time_solve_s;
        report.iterations = modes.restarts;
        report.figures["eigen_solves"] = static_cast<double>(modes.solves);
        report.figures["eigen_block_size"] = modes.block_size;
        report.figures["eigen_subspace"] = modes.subspace;
        report.figures["eigen_shift"] = modes.shift;
        return report;
      });
  const auto residuals = eigen::mode_residuals(k, m, modes.eigenvalues, modes.vectors, modes.shift);
  row.residual = residuals.empty() ? 0.0 : *std::max_element(residuals.begin(), residuals.end());
  for (double lambda : modes.eigenvalues) row.frequencies_hz.push_back(frequency_of_eigenvalue(lambda));
  return modes.eigenvalues;
}
}  // namespace

std::string budget_key(const std::string& combination, const std::string& renumber) {
  return combination + " / " + renumber;
}

double max_relative_difference(const std::vector<double>& u, const std::vector<double>& r) {
  double scale = 0, worst = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    scale = std::max(scale, std::abs(r[i]));
    worst = std::max(worst, std::abs(u[i] - r[i]));
  }
  return scale > 0 ? worst / scale : worst;
}

namespace {

// A row's identity (its solver, device, renumbering, size) and the numbering it is solved in.
StudyRow new_row(const Combination& combination, const std::string& renumber, const std::string& size,
                 const NodeOrdering& ordering, const renumber::NodeGraph& graph, int dofs_per_node) {
  StudyRow row;
  row.solver = combination.eigen() ? name_of(*combination.eigen_method) : name_of(combination.method);
  row.device = name_of(combination.device);
  if (combination.preconditioner) row.preconditioner = name_of(*combination.preconditioner);
  if (const auto factorising = combination.factorising_method()) row.linear_method = name_of(*factorising);
  row.renumber = renumber;
  row.size = size;
  row.renumber_used = ordering.method;
  row.dofs = static_cast<std::int64_t>(graph.num_nodes()) * dofs_per_node;
  row.bandwidth = ordering.after.bandwidth;
  for (int node = 0; node < graph.num_nodes(); ++node)
    row.nnz += static_cast<std::int64_t>(graph.degree(node) + 1) * dofs_per_node * dofs_per_node;
  return row;
}

// The case's solver settings with the row's method, device and preconditioner, and a progress
// callback that shows a line every 2 s and stops a solve that runs past the time budget (asked
// more often when there is a budget).
SolverOptions row_options(const SolverSpec& solver, const Combination& combination, const CompareSettings& settings,
                          const Stopwatch& solving, ProgressLine& progress_line, const std::string& label) {
  SolverOptions options = solver;
  options.method = combination.method;
  options.device = combination.device;
  if (combination.preconditioner) options.preconditioner = *combination.preconditioner;
  const double time_budget = settings.budget.time_s;
  if (time_budget > 0) options.progress_interval_s = std::min(options.progress_interval_s, time_budget / 20);
  if (settings.progress || time_budget > 0)
    options.progress = [&solving, &progress_line, label, time_budget, shown = settings.progress,
                        since_shown = Stopwatch()](const std::string& line) mutable {
      const double running = solving.seconds();
      if (time_budget > 0 && running > time_budget)
        throw OverBudget("stopped after " + seconds_text(running) + ", over the time budget of " + seconds_text(time_budget));
      if (shown && since_shown.seconds() >= 2) {
        since_shown.restart();
        progress_line.show(label + " ... " + line);
      }
    };
  return options;
}

// Runs `solve`, turning what stops a row into its status and message (a budget overrun is
// recorded in the ledger); a fault of the case itself goes on up, as no row can be solved.
std::vector<double> solve_or_mark(const std::function<std::vector<double>()>& solve, StudyRow& row, BudgetLedger& ledger,
                                  const std::string& key, const Stopwatch& solving) {
  try {
    return solve();
  } catch (const OverBudget& e) {
    row.status = RowStatus::OverBudget;
    row.message = e.what();
    ledger.record_stopped(key, row.dofs, solving.seconds());
  } catch (const SolverUnavailable& e) {
    row.status = RowStatus::Unavailable;
    row.message = e.what();
  } catch (const SolveFailure& e) {
    row.status = RowStatus::Failed;
    row.message = e.what();
  } catch (const std::bad_alloc&) {
    row.status = RowStatus::Failed;
    row.message = "out of memory";
  } catch (const CaseError&) {
    throw;
  } catch (const std::exception& e) {
    row.status = RowStatus::Failed;
    row.message = e.what();
  }
  return {};
}

// What a solved row's timed solves measured: times, memory, iterations, the solver's figures and
// what follows from them (factor size and fill, GFLOP/s), energy.
void record_measured(const Measured& measured, SolverMethodId ordered_for, StudyRow& row) {
  const SolveReport& report = measured.report;
  // A method that orders the equations itself solved in its own ordering: the row says which,
  // and the bandwidth of the numbering it was handed means nothing for it.
  if (const std::string own = own_ordering_used(ordered_for, report); !own.empty()) {
    row.renumber_used = own;
    row.bandwidth = 0;
  }
  row.repeats = static_cast<int>(measured.wall.size());
  row.time_setup_s = spread_of(measured.setup);
  row.time_solve_s = spread_of(measured.solve);
  row.time_total_s = spread_of(measured.wall);
  row.solver_memory_bytes = static_cast<double>(report.memory_bytes);
  row.iterations = report.iterations;
  for (const auto& [name, value] : report.figures) row.figures[name] = value;
  factor_figures(report, row);
  if (const auto flops = report.figures.find("flops"); flops != report.figures.end() && flops->second > 0) {
    row.flops = flops->second;
    if (row.time_setup_s.median > 0) row.gflops = flops->second / row.time_setup_s.median * 1e-9;
  }
  if (!measured.energy.empty()) row.energy_j = spread_of(measured.energy).median;
}

}  // namespace

std::vector<StudyRow> compare_on_mesh(const Case& c, const Mesh& mesh, const CompareSettings& settings,
                                      const std::string& size, BudgetLedger& ledger, std::string& reference,
                                      std::ostream& log) {
  const bool modal = c.analysis.type == AnalysisType::Modal;
  require_rows_fit(settings.combinations, modal, c.file.string());
  const Problem problem = build_problem(c, mesh);
  // Each solve solves every load case; a modal case has none (its loads are ignored).
  const std::vector<LoadCase> load_cases = modal ? std::vector<LoadCase>{} : resolve_load_cases(c, problem);
  const int d = problem.physics.dofs_per_node();
  const auto graph =
      renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  SystemCache cache(problem, graph);
  // Per solved row its answer: u in mesh order (comparable across renumberings), or the eigenvalues.
  std::vector<std::pair<std::size_t, std::vector<double>>> solutions;
  std::vector<StudyRow> rows;

  for (const auto& renumber : settings.renumberings) {
    for (const auto& given : settings.combinations) {
      const Combination combination = with_preconditioner(given, c.solver.preconditioner);
      // The solver whose numbering the row gets (an eigen row's linear method).
      const SolverMethodId ordered_for = combination.method;
      const NodeOrdering& ordering = cache.ordering(renumber, ordered_for);
      StudyRow row = new_row(combination, renumber, size, ordering, graph, d);
      const std::string label = "fem: solve    " + combination.name() + ", " + ordering.method + ", " +
                                with_commas(row.dofs) + " dofs" + (size.empty() ? "" : " (" + size + ")");

      const std::string key = budget_key(combination.name(), renumber);
      if (const auto why = ledger.refusal(key, row.dofs); !why.empty()) {
        row.status = RowStatus::Skipped;
        row.message = why;
        log << label << ": skipped, " << why << "\n" << std::flush;
        rows.push_back(std::move(row));
        continue;
      }

      ProgressLine progress_line(log);
      Stopwatch solving;
      const SolverOptions options = row_options(c.solver, combination, settings, solving, progress_line, label);
      Measured measured;
      std::vector<double> answer = solve_or_mark(
          [&] {
            return combination.eigen()
                       ? solve_eigen_row(cache, c, renumber, combination, options, settings, solving, row, measured, label, log)
                       : solve_linear_row(cache, load_cases, renumber, combination, options, settings, solving, row,
                                          measured, label, log);
          },
          row, ledger, key, solving);
      progress_line.clear();
      if (row.status != RowStatus::Ok) {
        log << label << ": " << status_name(row.status) << ": " << row.message << "\n" << std::flush;
        rows.push_back(std::move(row));
        continue;
      }

      record_measured(measured, ordered_for, row);
      if (reference.empty()) reference = key;
      solutions.emplace_back(rows.size(), std::move(answer));
      row.note = ledger.record(key, row.dofs, *std::max_element(measured.wall.begin(), measured.wall.end()),
                               std::max(row.peak_memory_bytes, row.solver_memory_bytes));

      char line[160];
      std::snprintf(line, sizeof line, ": setup %s, solve %s (median of %d), residual %.2e",
                    seconds_text(row.time_setup_s.median).c_str(), seconds_text(row.time_solve_s.median).c_str(),
                    row.repeats, row.residual);
      log << label << line << (row.note.empty() ? "" : "; " + row.note) << "\n" << std::flush;
      rows.push_back(std::move(row));
    }
  }
  compare_with_reference(rows, solutions, reference, settings.tolerance,
                         modal ? frequency_difference : max_relative_difference, log);
  return rows;
}

}  // namespace fem::study

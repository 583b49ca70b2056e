#include "fem/pipeline/run_pipeline.hpp"

#include <algorithm>
#include <array>
#include <future>
#include <iomanip>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>

#include "fem/output/matrix_market.hpp"
#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/load_case_summary.hpp"
#include "fem/pipeline/load_cases.hpp"
#include "fem/pipeline/make_mesh.hpp"
#include "fem/pipeline/memory_watermark.hpp"
#include "fem/pipeline/modal_run.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/phase_log.hpp"
#include "fem/pipeline/result_fields.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "fem/post/principal_stress.hpp"
#include "fem/pipeline/temperature_stage.hpp"
#include "fem/pipeline/transient_run.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/resources/case_fit.hpp"
#include "fem/resources/method_choice.hpp"
#include "kernels/device_queries.hpp"
#include "support/host_memory.hpp"
#include "support/step_times.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

using nlohmann::json;

std::string describe_mesh(const Mesh& mesh) {
  // Counted by type first (millions of cells), then named in name order.
  std::array<std::size_t, kElementTypeCount> of_type{};
  for (auto t : mesh.cells.type) ++of_type[static_cast<std::size_t>(t)];
  std::map<std::string, std::size_t> count;
  for (std::size_t t = 0; t < of_type.size(); ++t)
    if (of_type[t] > 0) count[std::string(element_info(static_cast<ElementType>(t)).name)] = of_type[t];
  std::string s = with_commas(static_cast<long long>(mesh.num_nodes())) + " nodes, ";
  bool first = true;
  for (const auto& [name, n] : count) {
    s += (first ? "" : " + ") + with_commas(static_cast<long long>(n)) + " " + name;
    first = false;
  }
  return s;
}

std::string describe_numbering(const NodeOrdering& order) {
  std::ostringstream s;
  s << order.method << ": bandwidth " << with_commas(order.before.bandwidth) << " -> " << with_commas(order.after.bandwidth)
    << ", profile " << with_commas(order.before.profile) << " -> " << with_commas(order.after.profile);
  return s.str();
}

// The node graph (which serves the sparsity pattern too) and the ordering the case asks for.
struct Numbering {
  renumber::NodeGraph graph;
  NodeOrdering ordering;
};

// solver.method: auto is resolved here, where the graph gives the system's size and before the
// ordering, which serves the method.
Numbering number_stage(Case& c, const Problem& problem) {
  const Mesh& mesh = *problem.mesh;
  Numbering numbering;
  numbering.graph = timed_step("renumber.graph", [&] {
    return renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  });
  resources::resolve_auto_method(c, numbering.graph, mesh.dimension, problem.physics.dofs_per_node());
  numbering.ordering = timed_step("renumber.order", [&] {
    return order_nodes(numbering.graph, c.solver.renumber, c.solver.method, problem.physics.dofs_per_node());
  });
  return numbering;
}

std::string megabytes(std::uintmax_t bytes, double seconds) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << bytes / 1e6 << " MB";
  if (seconds > 0) s << " at " << std::setprecision(0) << bytes / 1e6 / seconds << " MB/s";
  return s.str();
}

// The axisymmetric model's u_r = 0 on the axis, which the case did not write.
void note_axis_conditions(const Problem& problem, std::ostream& log) {
  for (const auto& condition : problem.dirichlet)
    if (condition.group == kAxisGroup)
      log << "fem: note     axisymmetric: u_r = 0 held on the " << condition.nodes.size()
          << " nodes on the axis (r = 0), group '" << kAxisGroup << "' of the reactions\n";
}

void note_auto_method(const SolverSpec& solver, std::ostream& log) {
  if (!solver.method_chosen_because.empty())
    log << "fem: auto     solver " << solver.method << ": " << solver.method_chosen_because << "\n";
}


// One answer per load set: the common loads, or each load case on one K. Returns the phase's line.
std::string solve_load_sets(const SolverSpec& spec, const SolverOptions& options, bool by_elements, Executor& executor,
                            DiscreteSystem& system, LinearSolver& solver, std::optional<LoadCaseSystem>& cases_system,
                            std::vector<SolveOutcome>& solved) {
  if (!cases_system) {
    solved = {executor.solve(system, solver, options, by_elements)};
    solved[0].verdict = judge_answer(options, solved[0].report, solved[0].residual, spec.require_convergence);
    return describe_solve(options, solved[0]);
  }
  solved = solve_load_cases(*cases_system, solver, options, spec.require_convergence);
  SolveOutcome worst = solved[0];
  for (const auto& one : solved) worst.residual = std::max(worst.residual, one.residual);
  const bool reused = worst.report.figures.at("reuses_preparation") > 0;
  return describe_solve(options, worst) + " (the largest), " + std::to_string(solved.size()) + " load cases " +
         (!cases_system->one_matrix() ? "one after another, element by element"
          : reused                    ? "on one preparation of K"
                                      : "on one K, each solve preparing it again (" +
                                            std::string(name_of(options.method)) + " has no prepared path)");
}

// Strain, stress, fluxes and reactions of each load set, where the executor keeps the answer.
std::vector<NodalResults> recover_load_sets(const OutputSpec& output, const Problem& problem,
                                            const std::vector<LoadCase>& load_cases, Executor& executor,
                                            DiscreteSystem& system, const std::vector<SolveOutcome>& solved) {
  // Principal directions are 9 values a node: only when output.fields names them.
  const auto& wanted = output.fields;
  const bool directions = std::find(wanted.begin(), wanted.end(), "principal_directions") != wanted.end();
  std::vector<NodalResults> results(solved.size());
  for (std::size_t k = 0; k < solved.size(); ++k) {
    results[k] = executor.recover(load_cases.empty() ? problem : load_cases[k].problem, system, solved[k].solution);
    if (directions) results[k].principal_directions = principal_direction_field(results[k].stress);
  }
  return results;
}

// What the write phase puts in files.
struct RunResults {
  const Case& c;
  const Problem& problem;
  const std::vector<LoadCase>& load_cases;
  const NodeOrdering& order;
  const std::vector<NodalResults>& results;
};

// Stages every field file, the matrix export and the JSON summary, then commits them all at once
// (a failure leaves earlier results as they were). Returns the phase's line: the files, MB and MB/s.
std::string write_results(const RunResults& run, const RunOverrides& overrides, Executor& executor, ResultSink& sink,
                          DiscreteSystem& system, json& summary, PhaseLog& phases) {
  const Case& c = run.c;
  const auto& load_cases = run.load_cases;
  const auto& results = run.results;
  const auto& problem = run.problem;
  const auto& order = run.order;
  AtomicOutput output(c.output.directory);
  StagedFields staged;
  double field_seconds = 0;
  executor.together([&] {
    const Stopwatch writing;
    for (std::size_t k = 0; k < results.size(); ++k) {
      // A load case's files are <case>-<name>, its fields and view its own.
      const bool single = load_cases.empty();
      const StagedFields one =
          sink.stage(output, single ? c.name : c.name + "-" + load_cases[k].name,
                     result_fields(c, single ? problem : load_cases[k].problem, results[k],
                                   single ? summary : summary["load_cases"][k]),
                     executor.piece());
      staged.bytes += one.bytes;
      staged.note = one.note;
    }
    field_seconds = writing.seconds();
    if (overrides.export_matrix) {
      system.prepare(false);  // the frontal method solved without assembling: assemble for the export
      const std::string what = c.name + ": " + with_commas(system.dofs().num_dofs()) + " equations in fem's " +
                               order.method + " numbering, Dirichlet conditions applied";
      write_matrix_market(output.stage(c.name + "-K.mtx"), system.assembled().matrix, "K of " + what);
      write_matrix_market(output.stage(c.name + "-f.mtx"), system.assembled().rhs, "f of " + what);
    }
    // "write" is the field files' time; the small JSON itself comes last.
    phases.set_time("write", field_seconds);
    phases.describe(summary);
    summary["write"] = {{"bytes", staged.bytes}, {"seconds", field_seconds}};
    summary["peak_memory_bytes"] = peak_memory_bytes();
    if (executor.is_root())
      output.stage_text(c.name + ".json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  });
  std::string list;
  for (const auto& p : output.commit()) list += (list.empty() ? "" : ", ") + p.filename().string();
  // Each rank commits its own piece; this line is rank 0's, so it counts the others.
  const auto piece = executor.piece();
  const int ranks = piece ? piece->ranks : 1;
  if (ranks > 1) list += ", and the pieces of ranks 1 to " + std::to_string(ranks - 1);
  if (staged.bytes > 0) list += " (" + megabytes(staged.bytes, field_seconds) + (ranks > 1 ? " for rank 0's" : "") + ")";
  if (!staged.note.empty()) list += " (" + staged.note + ")";
  return list;
}

}  // namespace

json run_pipeline(const Case& given, const RunOverrides& overrides, Executor& executor, ResultSink& sink,
                  std::ostream& console) {
  Case c = given;  // with solver.method: auto resolved once the system's size is known
  std::ostream silent(nullptr);
  std::ostream& log = executor.is_root() ? console : silent;
  log << "fem: case     " << c.file.string() << ": " << c.title << "\n";
  PhaseLog phases(log);
  const auto device_context =
      c.solver.device == Device::Cuda ? kernels::start_cuda_context() : std::future<void>{};

  Mesh mesh;
  phases.run("mesh", [&] {
    mesh = make_mesh(c.mesh);
    return describe_mesh(mesh);
  });
  SolverOptions options = c.solver;
  if (!overrides.quiet) options.progress = [&](const std::string& line) { phases.progress(line); };
  options.progress_interval_s = overrides.progress_interval_s;
  const bool solved_temperature = c.temperature && !c.temperature->from.empty();
  const Problem problem =
      build_problem(c, mesh, solved_temperature ? solve_temperature_field(c, mesh, options, executor, phases)
                                                : std::vector<double>{});
  note_axis_conditions(problem, log);
  const std::vector<LoadCase> load_cases = resolve_load_cases(c, problem);  // none: the common loads are the one set
  const int d = problem.physics.dofs_per_node();

  Numbering numbering;
  phases.run("renumber", [&] {
    numbering = number_stage(c, problem);
    // Where the nodes live, once the graph is in its place: a distributed system keeps it.
    executor.place_nodes(problem, numbering.graph, numbering.ordering);
    return describe_numbering(numbering.ordering);
  });
  options.method = c.solver.method;
  note_auto_method(c.solver, log);
  const NodeOrdering& order = numbering.ordering;
  resources::require_system_fits(c, resources::system_size(numbering.graph, order.after, mesh.dimension, d),
                                 host_available_memory());

  auto solver = make_solver(options);  // before assembly: an unavailable solver fails fast
  if (c.analysis.type == AnalysisType::Modal)
    return run_modal({c, overrides, mesh, problem, numbering.graph, order, options, *solver}, executor, sink, phases, log);
  if (c.analysis.type == AnalysisType::Transient)
    return run_transient({c, overrides, mesh, problem, numbering.graph, order, options, *solver}, executor, sink, phases,
                         log);
  const bool by_elements = solver->uses_element_matrices();

  DiscreteSystem system(problem, numbering.graph, order);
  system.assemble_on_cuda_when_possible(options.device == Device::Cuda &&
                                        (options.method == SolverMethodId::Cg || options.method == SolverMethodId::Bicgstab));
  system.assemble_in_node_blocks(solver->takes_node_blocks());
  std::optional<LoadCaseSystem> cases_system;
  phases.run("assemble", [&] {
    ProgressMeter progress(options);
    executor.assemble(system, by_elements, progress);
    if (!load_cases.empty()) cases_system.emplace(system, load_cases, by_elements);
    return with_commas(system.dofs().num_dofs()) + " equations, " + with_commas(system.nnz()) + " nonzeros, " +
           with_commas(system.constraints().count) + " prescribed" + (by_elements ? ", element by element" : "") +
           (system.assembled_on_cuda() ? ", on the CUDA device" : "") +
           (load_cases.empty() ? "" : ", " + std::to_string(load_cases.size()) + " load cases");
  });

  std::vector<SolveOutcome> solved;  // per load set: the common one, or each load case
  phases.run("solve", [&] {
    return solve_load_sets(c.solver, options, by_elements, executor, system, *solver, cases_system, solved);
  });
  for (const auto& one : solved)
    if (!one.verdict.converged) {
      log << "fem: NOT CONVERGED: " << one.verdict.reason << "\n";
      break;
    }

  std::vector<NodalResults> results;
  json summary;
  phases.run("post", [&] {
    results = recover_load_sets(c.output, problem, load_cases, executor, system, solved);
    // The summary's extremes and load balances read every node and cell: post-processing too.
    const RunRecord record{c, mesh, problem, order, system.dofs().num_dofs(), system.nnz(), solved[0], results[0]};
    summary = load_cases.empty() ? run_summary(record) : load_case_summary(record, load_cases, solved, results);
    return std::string(problem.physics.type == PhysicsType::Heat ? "heat flux" : "strain, stress, von Mises") +
           ", reactions" + (load_cases.empty() ? "" : " of each load case");
  });
  executor.describe(summary, solved[0].report);

  phases.run("write", [&] {
    return write_results({c, problem, load_cases, order, results}, overrides, executor, sink, system, summary, phases);
  });
  phases.describe(summary);
  print_run_summary(log, summary, c.output.directory.string());
  print_load_cases(log, summary);
  return summary;
}

}  // namespace fem

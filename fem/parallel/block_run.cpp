#include "fem/parallel/block_run.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "fem/mesh/box_part.hpp"
#include "fem/output/paraview_script.hpp"
#include "fem/parallel/collective.hpp"
#include "fem/parallel/petsc_summary.hpp"
#include "fem/parallel/rank_accounting.hpp"
#include "fem/parallel/rank_reductions.hpp"
#include "fem/parallel/block_summary.hpp"
#include "fem/parallel/block_system.hpp"
#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/phase_log.hpp"
#include "fem/pipeline/result_fields.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "fem/post/principal_stress.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

using nlohmann::json;

void on_every_rank(const std::function<void()>& step) { collectively(PETSC_COMM_WORLD, step); }

// Every field complete at the rank's ghosts too (its piece shows them), from their owners.
void complete_at_ghosts(NodalResults& r, const GhostExchange& ghosts) {
  const int reaction_width = static_cast<int>(r.reaction.size() / ghosts.position().size());
  const std::initializer_list<std::pair<NodalArray*, int>> fields = {
      {&r.displacement, 3},     {&r.strain, 6},           {&r.stress, 6},
      {&r.von_mises, 1},        {&r.principal_stress, 3}, {&r.tresca, 1},
      {&r.principal_directions, 9}, {&r.temperature, 1},  {&r.heat_flux, 3},
      {&r.reaction, reaction_width}};
  for (const auto& [field, width] : fields) ghosts.complete(*field, width);
}

// The deformed view's scale from the whole box, which no rank holds: its two far corners.
double box_deformation_scale(const BoxSpec& box, double max_displacement) {
  std::vector<double> corners(6, 0.0);
  for (std::size_t k = 0; k < box.size.size(); ++k) {
    corners[k] = box.origin.empty() ? 0.0 : box.origin[k];
    corners[3 + k] = corners[k] + box.size[k];
  }
  return deformation_scale(corners, max_displacement);
}

struct BlockRun {
  BlockRun(const Case& c, ResultSink& sink, PhaseLog& phases, int rank, int ranks)
      : c(c), sink(sink), phases(phases), rank(rank), ranks(ranks) {}
  const Case& c;
  ResultSink& sink;
  PhaseLog& phases;
  int rank, ranks;
  BoxPart part;
  std::optional<Problem> problem;
  std::optional<BlockSystem> system;
  SolveOutcome solved;
  NodalResults results;
};

std::string make_block(BlockRun& run) {
  on_every_rank([&] {
    try {
      run.part = make_box_part(run.c.mesh.box, run.rank, run.ranks);
    } catch (const std::invalid_argument& e) {
      throw CaseError(run.c.file.string() + ": mesh: " + e.what());
    }
  });
  const BoxPart& part = run.part;
  return with_commas(part.box_nodes) + " nodes, " + with_commas(part.box_cells) + " cells in " +
         block_grid_name(part) + "; rank 0 made " + with_commas(static_cast<long long>(part.mesh.cells.size())) +
         " of them, " + with_commas(static_cast<long long>(part.own_cells.size())) + " its own";
}

std::string solve_on_blocks(BlockRun& run, const SolverOptions& options) {
  const auto method = options.method == SolverMethodId::Mumps ? petsc::Method::Mumps : petsc::Method::Krylov;
  run.solved.report = run.system->solve(method, options, run.solved.solution, run.solved.residual);
  run.solved.verdict = judge_answer(options, run.solved.report, run.solved.residual, run.c.solver.require_convergence);
  return describe_solve(options, run.solved);
}

std::string recover_on_blocks(BlockRun& run) {
  const BlockSystem& system = *run.system;
  // Every cell of the part, ghosts included: the averages at the rank's own nodes are complete.
  run.results = recover_results(*run.problem, system.dofs(), system.constraints(), run.solved.solution);
  const auto& wanted = run.c.output.fields;
  if (std::find(wanted.begin(), wanted.end(), "principal_directions") != wanted.end())
    run.results.principal_directions = principal_direction_field(run.results.stress);
  complete_at_ghosts(run.results, system.ghosts());
  return std::string(run.problem->physics.type == PhysicsType::Heat ? "heat flux" : "strain, stress, von Mises") +
         ", reactions; the ghosts' values from their owners";
}

std::string write_on_blocks(BlockRun& run, json& summary) {
  AtomicOutput output(run.c.output.directory);
  StagedFields staged;
  double field_seconds = 0;
  on_every_rank([&] {
    const Stopwatch writing;
    ResultFields fields = result_fields(run.c, *run.problem, run.results, summary);
    if (fields.view.warp) fields.view.warp_scale = box_deformation_scale(run.c.mesh.box, summary.value("max_displacement", 0.0));
    staged = run.sink.stage(output, run.c.name, fields, ResultPiece{run.rank, run.ranks, run.part.own_cells, run.part.owned});
    field_seconds = writing.seconds();
  });
  run.phases.set_time("write", field_seconds);
  describe_rank_holdings(summary, static_cast<std::int64_t>(run.part.mesh.cells.size()));
  describe_rank_times(summary, run.phases.times());
  summary["write"] = {{"bytes", static_cast<std::int64_t>(sum_over_ranks(static_cast<double>(staged.bytes)))},
                      {"seconds", summary["time_s"]["write"]}};
  on_every_rank([&] {
    if (run.rank == 0) output.stage_text(run.c.name + ".json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  });
  std::string list;
  for (const auto& p : output.commit()) list += (list.empty() ? "" : ", ") + p.filename().string();
  list += ", and the pieces of ranks 1 to " + std::to_string(run.ranks - 1);
  if (!staged.note.empty()) list += " (" + staged.note + ")";
  return list;
}

}  // namespace

std::string why_not_on_blocks(const Case& c) {
  using K = BoundarySpec::Kind;
  if (c.mesh.source != MeshSpec::Source::Box) return "a Gmsh mesh";
  if (c.analysis.type != AnalysisType::Static) return "a modal or transient analysis";
  if (c.temperature && !c.temperature->from.empty()) return "a temperature field solved first";
  if (c.physics.model == ElasticModel::Axisymmetric && c.physics.type == PhysicsType::Elasticity) return "an axisymmetric model";
  for (const auto& b : c.boundary)
    if (b.kind == K::Force || b.kind == K::Moment) return "a load given by its resultant (force or moment over a group)";
  return "";
}

json run_on_blocks(const Case& c, const RunOverrides& overrides, ResultSink& sink, std::ostream& console) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  std::ostream silent(nullptr);
  std::ostream& log = rank == 0 ? console : silent;
  log << "fem: case     " << c.file.string() << ": " << c.title << "\n";
  log << "fem: route    " << ranks << " ranks, each making its own block of the box: no rank holds the whole mesh\n";
  PhaseLog phases(log);
  BlockRun run{c, sink, phases, rank, ranks};
  SolverOptions options = c.solver;
  if (!overrides.quiet) options.progress = [&](const std::string& line) { phases.progress(line); };
  options.progress_interval_s = overrides.progress_interval_s;

  phases.run("mesh", [&] { return make_block(run); });
  on_every_rank([&] { run.problem.emplace(build_problem(c, run.part.mesh)); });
  phases.run("renumber", [&] {
    on_every_rank([&] { run.system.emplace(*run.problem, run.part); });
    return "nodes numbered block by block (" + block_grid_name(run.part) + "), rank 0 owning " +
           with_commas(run.part.owned_nodes);
  });
  phases.run("assemble", [&] {
    run.system->assemble();
    return with_commas(run.part.box_nodes * run.problem->physics.dofs_per_node()) + " equations, " +
           with_commas(sum_over_ranks(run.system->row_figures().nnz)) + " nonzeros, rank 0 its " +
           with_commas(run.system->equations());
  });
  phases.run("solve", [&] { return solve_on_blocks(run, options); });
  if (!run.solved.verdict.converged) log << "fem: NOT CONVERGED: " << run.solved.verdict.reason << "\n";
  phases.run("post", [&] { return recover_on_blocks(run); });

  json summary = block_summary({c, run.part, *run.problem, *run.system, run.solved, run.results});
  std::vector<std::int64_t> equations;
  for (double e : per_rank(static_cast<double>(run.system->equations()))) equations.push_back(static_cast<std::int64_t>(e));
  describe_petsc_solve(summary, run.solved.report, options, equations);
  phases.run("write", [&] { return write_on_blocks(run, summary); });
  print_run_summary(log, summary, c.output.directory.string());
  return summary;
}

}  // namespace fem

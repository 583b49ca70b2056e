#include "fem/parallel/rank_executor.hpp"

#include "fem/parallel/collective.hpp"
#include "fem/parallel/petsc_summary.hpp"
#include "fem/parallel/rank_accounting.hpp"
#include "fem/renumber/ordering_metrics.hpp"
#include "solvers/petsc/petsc_session.hpp"

namespace fem {

RankExecutor::RankExecutor() {
  petsc::ensure_initialized();
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank_);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks_);
}

void RankExecutor::place_nodes(const Problem& problem, const renumber::NodeGraph& graph, NodeOrdering& ordering) {
  // The nodes grouped by rank, in the case's order within each.
  distributed_.emplace(problem, graph, ordering.permutation);
  ordering.method += " within " + std::to_string(ranks_) + " METIS parts";
  ordering.permutation = distributed_->permutation();
  ordering.after = renumber::ordering_metrics(graph, ordering.permutation, problem.physics.dofs_per_node());
}

void RankExecutor::assemble(DiscreteSystem& system, bool, ProgressMeter&) {
  distributed_->assemble(system.dofs(), system.constraints());
}

SolveOutcome RankExecutor::solve(const DiscreteSystem& system, LinearSolver&, const SolverOptions& options, bool) {
  options_ = options;
  SolveOutcome outcome;
  outcome.solution.assign(static_cast<std::size_t>(system.dofs().num_dofs()), 0.0);
  const auto method = options.method == SolverMethodId::Mumps ? petsc::Method::Mumps : petsc::Method::Krylov;
  outcome.report = distributed_->solve(method, options, outcome.solution, outcome.residual);
  return outcome;
}

NodalResults RankExecutor::recover(const Problem& problem, const DiscreteSystem& system, std::span<const double> solution) {
  // Each rank its own nodes, then put together.
  NodalResults results = recover_results(problem, system.dofs(), system.constraints(), solution, distributed_->post_cells());
  distributed_->combine(results);
  return results;
}

std::optional<ResultPiece> RankExecutor::piece() const {
  ResultPiece piece;
  piece.rank = rank_;
  piece.ranks = ranks_;
  piece.cells = distributed_->own_cells();
  piece.owned.resize(static_cast<std::size_t>(distributed_->permutation().size()));
  for (std::size_t n = 0; n < piece.owned.size(); ++n) piece.owned[n] = distributed_->owns_node(static_cast<int>(n));
  return piece;
}

void RankExecutor::together(const std::function<void()>& step) { collectively(PETSC_COMM_WORLD, step); }

void RankExecutor::describe(nlohmann::json& summary, const SolveReport& report) const {
  describe_petsc_solve(summary, report, options_, distributed_->equations_per_rank());
  // Written before the result files, so each rank's peak up to its results.
  describe_rank_holdings(summary, static_cast<std::int64_t>(distributed_->own_cells().size()));
  summary["mesh_distribution"] = "whole mesh on every rank";
}

}  // namespace fem

#pragma once
// Where a run's data lives and its stages run: the host threads of one process, or MPI ranks
// each holding a block of the equations. The driver (run_pipeline) calls the stages through it
// in order and hands each one's typed output to the next; the composition root (fem/app) picks
// the executor, so no stage asks which build or launch it is in.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/output/result_sink.hpp"
#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/post/nodal_results.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/progress_meter.hpp"

namespace fem {

// What the solve stage hands on: the solution in the system's equation order, the solver's
// report, the relative residual ||K u - f|| / ||f|| recomputed by fem, and the verdict on it.
struct SolveOutcome {
  std::vector<double> solution;
  SolveReport report;
  double residual = 0;
  AnswerVerdict verdict;
};

class Executor {
 public:
  virtual ~Executor() = default;

  // The process that speaks on the console and writes the summary.
  virtual bool is_root() const = 0;

  // Number stage: adjusts the case's node ordering to where the nodes live (unchanged on one
  // process).
  virtual void place_nodes(const Problem& problem, const renumber::NodeGraph& graph, NodeOrdering& ordering) = 0;

  // Assemble stage: what `by_elements` solvers (or the others) take, into `system`.
  virtual void assemble(DiscreteSystem& system, bool by_elements, ProgressMeter& progress) = 0;

  // Solve stage: the solution of `system` by `solver` (a distributed executor may solve with its
  // own counterpart of the same method).
  virtual SolveOutcome solve(const DiscreteSystem& system, LinearSolver& solver, const SolverOptions& options,
                             bool by_elements) = 0;

  // Recover stage: strains, stresses or fluxes and reactions at the nodes, complete on every
  // process.
  virtual NodalResults recover(const Problem& problem, const DiscreteSystem& system, std::span<const double> solution) = 0;

  // Where the result files are written in pieces, this process's; none for one file.
  virtual std::optional<ResultPiece> piece() const = 0;

  // Runs `step` (staging this process's files) so that either every process's step succeeds or
  // every process throws.
  virtual void together(const std::function<void()>& step) = 0;

  // The figures only this executor knows (ranks, equations per rank, ...), into the summary.
  virtual void describe(nlohmann::json& summary, const SolveReport& report) const = 0;
};

}  // namespace fem

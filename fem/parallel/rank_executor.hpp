#pragma once
// The stages on the MPI ranks of a PETSc run (fem under mpirun): the nodes split by METIS, each
// rank assembling and recovering its own part, PETSc solving the distributed system, the result
// files written as a piece per rank. Collective: every rank makes the same calls.
#include <optional>

#include "fem/parallel/distributed_system.hpp"
#include "fem/pipeline/executor.hpp"

namespace fem {

class RankExecutor final : public Executor {
 public:
  RankExecutor();  // initialises PETSc (and MPI) when it is not yet

  bool is_root() const override { return rank_ == 0; }
  void place_nodes(const Problem& problem, const renumber::NodeGraph& graph, NodeOrdering& ordering) override;
  void assemble(DiscreteSystem& system, bool by_elements, ProgressMeter& progress) override;
  SolveOutcome solve(const DiscreteSystem& system, LinearSolver& solver, const SolverOptions& options,
                     bool by_elements) override;
  NodalResults recover(const Problem& problem, const DiscreteSystem& system, std::span<const double> solution) override;
  std::optional<ResultPiece> piece() const override;
  void together(const std::function<void()>& step) override;
  void describe(nlohmann::json& summary, const SolveReport& report) const override;

 private:
  int rank_ = 0, ranks_ = 1;
  SolverOptions options_;  // of the solve, for the summary
  std::optional<DistributedSystem> distributed_;
};

}  // namespace fem

#pragma once
// The stages in one process on its host threads (OpenMP): the solvers there may still run on a
// GPU, with the system handed to them from the host.
#include "fem/pipeline/executor.hpp"

namespace fem {

class HostExecutor final : public Executor {
 public:
  // `describe_solver` adds the figures of a solver that reports more than SolveReport holds.
  using SolverDescription = std::function<void(nlohmann::json& summary, const SolveReport& report)>;
  explicit HostExecutor(SolverDescription describe_solver = {}) : describe_solver_(std::move(describe_solver)) {}

  bool is_root() const override { return true; }
  void place_nodes(const Problem&, const renumber::NodeGraph&, NodeOrdering&) override {}
  void assemble(DiscreteSystem& system, bool by_elements, ProgressMeter& progress) override;
  SolveOutcome solve(const DiscreteSystem& system, LinearSolver& solver, const SolverOptions& options,
                     bool by_elements) override;
  NodalResults recover(const Problem& problem, const DiscreteSystem& system, std::span<const double> solution) override;
  std::optional<ResultPiece> piece() const override { return std::nullopt; }
  void together(const std::function<void()>& step) override { step(); }
  void describe(nlohmann::json& summary, const SolveReport& report) const override {
    if (describe_solver_) describe_solver_(summary, report);
  }

 private:
  SolverDescription describe_solver_;
};

}  // namespace fem

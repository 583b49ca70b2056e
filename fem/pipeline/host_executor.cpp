#include "fem/pipeline/host_executor.hpp"

#include "support/step_times.hpp"

namespace fem {

void HostExecutor::assemble(DiscreteSystem& system, bool by_elements, ProgressMeter& progress) {
  system.prepare(by_elements, &progress);
}

SolveOutcome HostExecutor::solve(const DiscreteSystem& system, LinearSolver& solver, const SolverOptions&,
                                 bool by_elements) {
  SolveOutcome outcome;
  outcome.solution.assign(static_cast<std::size_t>(system.dofs().num_dofs()), 0.0);
  outcome.report = timed_step("solve.solver", [&] { return system.solve(solver, outcome.solution); });
  outcome.residual = timed_step("solve.residual", [&] { return system.relative_residual(by_elements, outcome.solution); });
  return outcome;
}

NodalResults HostExecutor::recover(const Problem& problem, const DiscreteSystem& system, std::span<const double> solution) {
  // Where the device assembled K (and the solver ran), the cells' sweep runs there too.
  return recover_results(problem, system.dofs(), system.constraints(), solution, {},
                         system.assembled_on_cuda() ? SweepOn::CudaWherePossible : SweepOn::Host);
}

}  // namespace fem

#include "fem/pipeline/load_cases.hpp"

#include <algorithm>

#include "fem/pipeline/answer_check.hpp"

namespace fem {

std::vector<LoadCase> resolve_load_cases(const Case& c, const Problem& common) {
  std::vector<LoadCase> cases;
  for (const auto& spec : c.load_cases) {
    Problem own = load_case_loads(c, spec, common);
    Problem problem = with_loads(common, own);
    cases.push_back({spec.name, std::move(own), std::move(problem)});
  }
  return cases;
}

LoadCaseSystem::LoadCaseSystem(const DiscreteSystem& system, const std::vector<LoadCase>& cases, bool by_elements)
    : system_(system), cases_(cases), by_elements_(by_elements) {
  for (const auto& lc : cases) {
    if (by_elements) {
      element_systems_.push_back(std::make_unique<DiscreteSystem>(lc.problem, system.graph(), system.ordering()));
      element_systems_.back()->prepare(true);
    } else {
      const auto rhs = system.right_hand_side(lc.own);
      rhs_.insert(rhs_.end(), rhs.begin(), rhs.end());
    }
  }
}

SolveReport LoadCaseSystem::solve(LinearSolver& solver, std::span<double> solutions) const {
  const std::size_t n = dofs();
  SolveReport report;
  if (!by_elements_) {
    report = system_.solve(solver, rhs_, solutions, count());
  } else {
    // Element matrices are consumed as the front moves: each case is a whole solve of its own.
    for (int k = 0; k < count(); ++k) {
      const SolveReport one = element_systems_[k]->solve(solver, solutions.subspan(k * n, n));
      report.time_solve_s += one.time_setup_s + one.time_solve_s;
      report.iterations = std::max(report.iterations, one.iterations);
      report.residual = std::max(report.residual, one.residual);
      report.memory_bytes = std::max(report.memory_bytes, one.memory_bytes);
      if (k == 0) report.figures = one.figures;
    }
    report.figures["reuses_preparation"] = 0;
  }
  report.figures["right_hand_sides"] = count();
  return report;
}

double LoadCaseSystem::relative_residual(int k, std::span<const double> solution) const {
  if (by_elements_) return element_systems_[k]->relative_residual(true, solution);
  const std::size_t n = dofs();
  return system_.relative_residual(std::span<const double>(rhs_).subspan(k * n, n), solution);
}

std::vector<SolveOutcome> solve_load_cases(const LoadCaseSystem& system, LinearSolver& solver,
                                           const SolverOptions& options, bool require_convergence) {
  const std::size_t n = system.dofs();
  std::vector<double> solutions(n * system.count(), 0.0);
  const SolveReport report = system.solve(solver, solutions);
  std::vector<SolveOutcome> outcomes(system.count());
  for (int k = 0; k < system.count(); ++k) {
    SolveOutcome& one = outcomes[k];
    one.solution.assign(solutions.begin() + k * n, solutions.begin() + (k + 1) * n);
    one.report = report;
    one.residual = system.relative_residual(k, one.solution);
    one.verdict = judge_answer(options, report, one.residual, require_convergence);
  }
  return outcomes;
}

}  // namespace fem

#pragma once
// A case's load cases (DESIGN.md: `load_cases`) on one system: K assembled once with the common
// constraints, one right-hand side per case, and every case solved on one preparation of the
// solver; the frontal method, which keeps no factorisation between calls, solves them in turn.
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fem/case/case.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/physics/problem.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

struct LoadCase {
  std::string name;
  Problem own;      // its own loads alone: what its right-hand side adds to the common one
  Problem problem;  // the common problem with its own loads: what it solves, recovers and reacts to
};

// The case's load cases resolved on the mesh of `common` (empty when it has none). Throws
// CaseError naming the line of a group the mesh lacks.
std::vector<LoadCase> resolve_load_cases(const Case& c, const Problem& common);

class LoadCaseSystem {
 public:
  // `system` prepared for this kind of solver (by_elements); both arguments must outlive this.
  // Builds each case's right-hand side for the assembled K, or its element system.
  LoadCaseSystem(const DiscreteSystem& system, const std::vector<LoadCase>& cases, bool by_elements);

  int count() const { return static_cast<int>(cases_.size()); }
  std::size_t dofs() const { return static_cast<std::size_t>(system_.dofs().num_dofs()); }
  // True when the cases share one preparation of the solver (the assembled K).
  bool one_matrix() const { return !by_elements_; }

  // Every case's solution into `solutions`, one after another (count() * dofs, equation order;
  // iterative solvers start from what it holds). The report: one setup, the solve time of all;
  // figures right_hand_sides and reuses_preparation (0 where each case repeats the setup).
  SolveReport solve(LinearSolver& solver, std::span<double> solutions) const;

  // ||K u - f|| / ||f|| of case k, recomputed the way a run of that case alone does.
  double relative_residual(int k, std::span<const double> solution) const;

 private:
  const DiscreteSystem& system_;
  const std::vector<LoadCase>& cases_;
  bool by_elements_;
  std::vector<double> rhs_;  // assembled: every case's right-hand side, one after another
  std::vector<std::unique_ptr<DiscreteSystem>> element_systems_;  // by elements: one per case
};

// The solve stage of a run with load cases: per case its solution, the shared report and its
// residual, each judged as a single run's (judge_answer; the report, and so a stop at the
// iteration limit, is shared by the cases).
std::vector<SolveOutcome> solve_load_cases(const LoadCaseSystem& system, LinearSolver& solver,
                                           const SolverOptions& options, bool require_convergence);

}  // namespace fem

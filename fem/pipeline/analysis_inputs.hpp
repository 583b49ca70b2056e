#pragma once
// What the stages of a non-static analysis (modal, transient) start from: the case, its mesh and
// problem numbered, and the solver made for them.
#include "fem/case/case.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/run_overrides.hpp"
#include "fem/physics/problem.hpp"
#include "fem/renumber/node_graph.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

struct AnalysisInputs {
  const Case& run_case;
  const RunOverrides& overrides;
  const Mesh& mesh;
  const Problem& problem;
  const renumber::NodeGraph& graph;
  const NodeOrdering& ordering;
  const SolverOptions& options;
  LinearSolver& solver;
};

}  // namespace fem

#pragma once
// The node numbering a case asks for (solver.renumber), with the matrix measures before and
// after, so that every command reports the same bandwidth and profile for the same choice.
#include <string>

#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/ordering_metrics.hpp"
#include "fem/renumber/permutation.hpp"
#include "fem/renumber/renumber.hpp"
#include "solvers/solver_choices.hpp"

namespace fem {

struct NodeOrdering {
  std::string method;  // "rcm", or "auto/sloan" when auto chose
  renumber::Permutation permutation;
  renumber::OrderingMetrics before, after;
};

// What a solver pays for, and so what `auto` optimises: the ordering goal of its row in the
// solver table (band solvers the bandwidth, the frontal method the front, the rest locality).
renumber::RenumberGoal renumber_goal(SolverMethodId solver_method);

// `name`: none | rcm | gps | sloan | auto; auto picks by renumber_goal(solver_method).
NodeOrdering order_nodes(const renumber::NodeGraph& graph, const std::string& name, SolverMethodId solver_method,
                         int dofs_per_node);

}  // namespace fem

#include "fem/pipeline/node_ordering.hpp"

#include "solvers/solver_table.hpp"

namespace fem {

renumber::RenumberGoal renumber_goal(SolverMethodId solver) {
  using renumber::RenumberGoal;
  const SolverMethod* method = find_solver_method(solver);
  switch (method ? method->ordering : OrderingGoal::Locality) {
    case OrderingGoal::Bandwidth: return RenumberGoal::Bandwidth;
    case OrderingGoal::Front: return RenumberGoal::Front;
    case OrderingGoal::Locality: return RenumberGoal::Locality;
  }
  return RenumberGoal::Locality;
}

NodeOrdering order_nodes(const renumber::NodeGraph& graph, const std::string& name, SolverMethodId solver, int d) {
  using namespace renumber;
  NodeOrdering o;
  const RenumberMethod method = parse_renumber_method(name);
  if (method == RenumberMethod::Auto) {
    auto choice = renumber_auto(graph, renumber_goal(solver), d);
    o.method = "auto/" + std::string(method_name(choice.method));
    o.permutation = std::move(choice.permutation);
    o.before = choice.trials.front().metrics;  // auto measures the original numbering first
    o.after = choice.metrics;
    return o;
  }
  o.before = ordering_metrics(graph, Permutation::identity(graph.num_nodes()), d);
  o.method = std::string(method_name(method));
  o.permutation = renumber::renumber(graph, method);
  o.after = ordering_metrics(graph, o.permutation, d);
  return o;
}

}  // namespace fem

#include "fem/pipeline/node_ordering.hpp"

namespace fem {

renumber::RenumberGoal renumber_goal(const std::string& solver) {
  using renumber::RenumberGoal;
  // The rest ask for locality: iterative methods, and the multifrontal solver, which orders the
  // equations itself (nested dissection), so the numbering it is handed only matters for the
  // locality of assembly and of its residual products, not for its fill.
  return solver.rfind("band-", 0) == 0 ? RenumberGoal::Bandwidth
         : solver == "frontal"         ? RenumberGoal::Front
                                       : RenumberGoal::Locality;
}

NodeOrdering order_nodes(const renumber::NodeGraph& graph, const std::string& name, const std::string& solver, int d) {
  using namespace renumber;
  NodeOrdering o;
  o.before = ordering_metrics(graph, Permutation::identity(graph.num_nodes()), d);
  const RenumberMethod method = parse_renumber_method(name);
  if (method == RenumberMethod::Auto) {
    auto choice = renumber_auto(graph, renumber_goal(solver), d);
    o.method = "auto/" + std::string(method_name(choice.method));
    o.permutation = std::move(choice.permutation);
    o.after = choice.metrics;
    return o;
  }
  o.method = std::string(method_name(method));
  o.permutation = renumber::renumber(graph, method);
  o.after = ordering_metrics(graph, o.permutation, d);
  return o;
}

}  // namespace fem

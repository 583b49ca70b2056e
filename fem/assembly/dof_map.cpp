#include "fem/assembly/dof_map.hpp"

#include <numeric>
#include <stdexcept>

namespace fem {

std::string DofMap::describe(std::int64_t equation) const {
  if (equation < 0 || equation >= num_dofs()) return "equation " + std::to_string(equation);
  const int node = node_at_rank[equation / dofs_per_node];
  std::string text = "equation " + std::to_string(equation) + ", node " + std::to_string(node + 1);
  if (dofs_per_node > 1) text += std::string(" (component ") + "xyz"[equation % dofs_per_node] + ")";
  return text;
}

DofMap make_dof_map(std::size_t num_nodes, int dofs_per_node, std::vector<std::int32_t> node_rank) {
  DofMap map;
  map.dofs_per_node = dofs_per_node;
  if (node_rank.empty()) {
    node_rank.resize(num_nodes);
    std::iota(node_rank.begin(), node_rank.end(), 0);
  }
  if (node_rank.size() != num_nodes) throw std::invalid_argument("make_dof_map: permutation of the wrong size");
  map.node_at_rank.assign(num_nodes, -1);
  for (std::size_t n = 0; n < num_nodes; ++n) {
    const auto r = node_rank[n];
    if (r < 0 || static_cast<std::size_t>(r) >= num_nodes || map.node_at_rank[r] != -1)
      throw std::invalid_argument("make_dof_map: not a permutation");
    map.node_at_rank[r] = static_cast<std::int32_t>(n);
  }
  map.node_rank = std::move(node_rank);
  return map;
}

}  // namespace fem

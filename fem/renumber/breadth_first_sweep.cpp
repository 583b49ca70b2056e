#include "fem/renumber/breadth_first_sweep.hpp"

#include <algorithm>

#include "fem/renumber/level_structure.hpp"

namespace fem::renumber {

Permutation breadth_first_sweep(const NodeGraph& graph) {
  const int n = graph.num_nodes();
  std::vector<int> scratch(n, -1), order;
  std::vector<char> numbered(n, 0);
  order.reserve(n);
  for (int start = 0; start < n; ++start) {
    if (numbered[start]) continue;
    const LevelStructure from_start = rooted_level_structure(graph, start, scratch);
    const std::span<const int> last = from_start.level(from_start.depth() - 1);
    const int far = *std::min_element(last.begin(), last.end(), LessDegree{graph});
    for (int v : rooted_level_structure(graph, far, scratch).nodes) {
      numbered[v] = 1;
      order.push_back(v);
    }
  }
  std::reverse(order.begin(), order.end());
  return Permutation::from_old_of_new(std::move(order));
}

}  // namespace fem::renumber

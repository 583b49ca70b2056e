#include "solvers/multifrontal/elimination_tree.hpp"

namespace fem::multifrontal {

std::vector<std::int32_t> elimination_tree(const BlockGraph& graph) {
  const std::int32_t n = graph.nodes;
  std::vector<std::int32_t> parent(n, -1), ancestor(n, -1);
  for (std::int32_t j = 0; j < n; ++j)
    for (std::int32_t i : graph.neighbours(j)) {
      if (i >= j) continue;
      // Climb from i to the root of its current subtree, pointing the path at j as we go.
      while (i != -1 && i < j) {
        const std::int32_t next = ancestor[i];
        ancestor[i] = j;
        if (next == -1) parent[i] = j;
        i = next;
      }
    }
  return parent;
}

std::vector<std::int32_t> postorder(const std::vector<std::int32_t>& parent) {
  const auto n = static_cast<std::int32_t>(parent.size());
  std::vector<std::int32_t> first_child(n, -1), next_sibling(n, -1);
  for (std::int32_t j = n - 1; j >= 0; --j)  // children listed in increasing order
    if (parent[j] >= 0) {
      next_sibling[j] = first_child[parent[j]];
      first_child[parent[j]] = j;
    }
  std::vector<std::int32_t> new_of_old(n), stack;
  std::int32_t next = 0;
  for (std::int32_t root = 0; root < n; ++root) {
    if (parent[root] != -1) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const std::int32_t j = stack.back();
      if (first_child[j] != -1) {  // descend into the next unvisited child
        const std::int32_t c = first_child[j];
        first_child[j] = next_sibling[c];
        stack.push_back(c);
      } else {
        new_of_old[j] = next++;
        stack.pop_back();
      }
    }
  }
  return new_of_old;
}

std::vector<std::int64_t> column_counts(const BlockGraph& graph, const std::vector<std::int32_t>& parent) {
  const std::int32_t n = graph.nodes;
  std::vector<std::int64_t> count(n, 1);
  std::vector<std::int32_t> mark(n, -1);
  // Row i of L is the union of the tree paths from each k < i adjacent to i up to i.
  for (std::int32_t i = 0; i < n; ++i)
    for (std::int32_t k : graph.neighbours(i))
      for (std::int32_t j = k; j < i && mark[j] != i; j = parent[j]) {
        mark[j] = i;
        ++count[j];
      }
  return count;
}

}  // namespace fem::multifrontal

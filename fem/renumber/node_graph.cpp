#include "fem/renumber/node_graph.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fem::renumber {
namespace {

void check_connectivity(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                        int num_nodes) {
  if (num_nodes < 0) throw std::invalid_argument("node graph: negative number of nodes " + std::to_string(num_nodes));
  if (element_offsets.empty() || element_offsets.front() != 0)
    throw std::invalid_argument("node graph: element offsets must start with 0 (one more entry than elements)");
  if (element_offsets.back() != element_nodes.size())
    throw std::invalid_argument("node graph: the last element offset (" + std::to_string(element_offsets.back()) +
                                ") differs from the number of element nodes (" +
                                std::to_string(element_nodes.size()) + ")");
  for (std::size_t e = 0; e + 1 < element_offsets.size(); ++e)
    if (element_offsets[e + 1] < element_offsets[e])
      throw std::invalid_argument("node graph: element offsets decrease at element " + std::to_string(e));
  for (std::size_t k = 0; k < element_nodes.size(); ++k)
    if (element_nodes[k] < 0 || element_nodes[k] >= num_nodes)
      throw std::invalid_argument("node graph: element node entry " + std::to_string(k) + " is " +
                                  std::to_string(element_nodes[k]) + ", outside [0, " + std::to_string(num_nodes) +
                                  ")");
}

// Visits each distinct neighbour j != i of node i once; `stamp` (size num_nodes, per thread)
// remembers the last node that saw j, so no clearing is needed between nodes.
template <class Visit>
void for_each_neighbour(int i, const NodeElements& incidence, std::span<const std::size_t> element_offsets,
                        std::span<const int> element_nodes, std::vector<int>& stamp, Visit visit) {
  for (std::size_t k = incidence.offset[i]; k < incidence.offset[i + 1]; ++k) {
    const int e = incidence.element[k];
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m) {
      const int j = element_nodes[m];
      if (j != i && stamp[j] != i) {
        stamp[j] = i;
        visit(j);
      }
    }
  }
}

}  // namespace

NodeElements elements_of_nodes(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                               int num_nodes) {
  check_connectivity(element_offsets, element_nodes, num_nodes);
  NodeElements incidence;
  incidence.offset.assign(static_cast<std::size_t>(num_nodes) + 1, 0);
  for (int j : element_nodes) ++incidence.offset[j + 1];
  for (int i = 0; i < num_nodes; ++i) incidence.offset[i + 1] += incidence.offset[i];
  incidence.element.resize(element_nodes.size());
  std::vector<std::size_t> next(incidence.offset.begin(), incidence.offset.end() - 1);
  const std::size_t num_elements = element_offsets.size() - 1;
  for (std::size_t e = 0; e < num_elements; ++e)
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m) {
      const int j = element_nodes[m];
      // A node listed twice in one element (degenerate input) is recorded once.
      if (next[j] > incidence.offset[j] && incidence.element[next[j] - 1] == static_cast<int>(e)) continue;
      incidence.element[next[j]++] = static_cast<int>(e);
    }
  // Compact away the slots left by repeated nodes, if any.
  std::size_t write = 0;
  for (int i = 0; i < num_nodes; ++i) {
    const std::size_t begin = incidence.offset[i];
    incidence.offset[i] = write;
    for (std::size_t k = begin; k < next[i]; ++k) incidence.element[write++] = incidence.element[k];
  }
  incidence.offset[num_nodes] = write;
  incidence.element.resize(write);
  return incidence;
}

NodeGraph node_graph_from_elements(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                                   int num_nodes) {
  const NodeElements incidence = elements_of_nodes(element_offsets, element_nodes, num_nodes);
  NodeGraph graph;
  graph.offset.assign(static_cast<std::size_t>(num_nodes) + 1, 0);

  // Two passes over the same neighbour walk: count, then fill at the counted offsets.
#pragma omp parallel
  {
    std::vector<int> stamp(num_nodes, -1);
#pragma omp for schedule(static)
    for (int i = 0; i < num_nodes; ++i) {
      std::size_t count = 0;
      for_each_neighbour(i, incidence, element_offsets, element_nodes, stamp, [&](int) { ++count; });
      graph.offset[i + 1] = count;
    }
  }
  for (int i = 0; i < num_nodes; ++i) graph.offset[i + 1] += graph.offset[i];
  graph.neighbour.resize(graph.offset[num_nodes]);
#pragma omp parallel
  {
    std::vector<int> stamp(num_nodes, -1);
#pragma omp for schedule(static)
    for (int i = 0; i < num_nodes; ++i) {
      int* out = graph.neighbour.data() + graph.offset[i];
      int* const first = out;
      for_each_neighbour(i, incidence, element_offsets, element_nodes, stamp, [&](int j) { *out++ = j; });
      std::sort(first, out);
    }
  }
  return graph;
}

}  // namespace fem::renumber

#include "fem/renumber/element_order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/sloan.hpp"

namespace fem::renumber {

std::vector<int> element_order_by_nodes(std::span<const std::size_t> element_offsets,
                                        std::span<const int> element_nodes, const Permutation& node_numbering) {
  const int num_nodes = node_numbering.size();
  // Validates the connectivity against the numbering's size.
  elements_of_nodes(element_offsets, element_nodes, num_nodes);
  const int num_elements = static_cast<int>(element_offsets.size()) - 1;
  std::vector<int> lowest(num_elements, num_nodes), highest(num_elements, -1);
#pragma omp parallel for schedule(static)
  for (int e = 0; e < num_elements; ++e)
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m) {
      const int p = node_numbering.new_of_old[element_nodes[m]];
      lowest[e] = std::min(lowest[e], p);
      highest[e] = std::max(highest[e], p);
    }
  std::vector<int> order(num_elements);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (lowest[a] != lowest[b]) return lowest[a] < lowest[b];
    if (highest[a] != highest[b]) return highest[a] < highest[b];
    return a < b;
  });
  return order;
}

std::vector<int> element_order_sloan(std::span<const std::size_t> element_offsets,
                                     std::span<const int> element_nodes, int num_nodes) {
  // The element graph is the node graph of the transposed incidence: each node "element"
  // lists the elements that hold it.
  const NodeElements incidence = elements_of_nodes(element_offsets, element_nodes, num_nodes);
  const int num_elements = static_cast<int>(element_offsets.size()) - 1;
  const NodeGraph element_graph = node_graph_from_elements(incidence.offset, incidence.element, num_elements);
  return sloan(element_graph).old_of_new;
}

FrontWidth front_width(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                       int num_nodes, std::span<const int> element_order, int dofs_per_node) {
  if (dofs_per_node < 1)
    throw std::invalid_argument("front width: dofs per node must be >= 1, got " + std::to_string(dofs_per_node));
  elements_of_nodes(element_offsets, element_nodes, num_nodes);  // validates the connectivity
  const int num_elements = static_cast<int>(element_offsets.size()) - 1;
  if (static_cast<int>(element_order.size()) != num_elements)
    throw std::invalid_argument("front width: element order has " + std::to_string(element_order.size()) +
                                " entries for " + std::to_string(num_elements) + " elements");
  Permutation::from_old_of_new({element_order.begin(), element_order.end()});  // throws unless a permutation

  // The step after which each node is eliminated: the last element that holds it.
  std::vector<int> last_step(num_nodes, -1);
  for (int step = 0; step < num_elements; ++step) {
    const int e = element_order[step];
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m)
      last_step[element_nodes[m]] = std::max(last_step[element_nodes[m]], step);
  }

  std::vector<char> entered(num_nodes, 0);
  std::int64_t front = 0, widest = 0;
  double sum_squares = 0;
  for (int step = 0; step < num_elements; ++step) {
    const int e = element_order[step];
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m)
      if (!entered[element_nodes[m]]) {
        entered[element_nodes[m]] = 1;
        ++front;
      }
    widest = std::max(widest, front);
    sum_squares += static_cast<double>(front) * static_cast<double>(front);
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m)
      if (last_step[element_nodes[m]] == step) {
        last_step[element_nodes[m]] = -1;  // a node listed twice in the element leaves once
        --front;
      }
  }
  const double d = dofs_per_node;
  FrontWidth width;
  width.max = widest * dofs_per_node;
  width.rms = num_elements == 0 ? 0.0 : d * std::sqrt(sum_squares / num_elements);
  return width;
}

}  // namespace fem::renumber

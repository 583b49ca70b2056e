#pragma once
// The order in which a frontal solver assembles elements, and the front it meets. The front
// holds the variables that are active: they appeared in an assembled element and are not yet
// eliminated (a variable is eliminated right after the last element that holds it).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

// Elements in order of the smallest new number among their nodes, then of the largest, then
// of index: each element comes in when the node numbering reaches it, so a node numbering of
// small wavefront (Sloan) gives a small front. Element connectivity as in node_graph.hpp.
std::vector<int> element_order_by_nodes(std::span<const std::size_t> element_offsets,
                                        std::span<const int> element_nodes, const Permutation& node_numbering);

// Sloan's ordering applied to the element graph (elements adjacent when they share a node).
std::vector<int> element_order_sloan(std::span<const std::size_t> element_offsets,
                                     std::span<const int> element_nodes, int num_nodes);

struct FrontWidth {
  std::int64_t max = 0;  // dofs in the front after assembling an element, at its largest
  double rms = 0;        // root mean square of that count over the elements
};

// The front, counted in dofs (d per node, nodes in no element never enter), when the elements
// are assembled in `element_order` (a permutation of the elements; throws otherwise).
FrontWidth front_width(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                       int num_nodes, std::span<const int> element_order, int dofs_per_node = 1);

}  // namespace fem::renumber

#pragma once
// Element colouring: groups of elements that share no node, so that one thread per element
// can add into node-indexed arrays without races.
#include <cstddef>
#include <span>
#include <vector>

#include "fem/mesh/mesh.hpp"

namespace fem {

// Elements grouped so that no two elements of a group share a node (greedy, in mesh order).
std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::size_t num_nodes);

// The same for the listed elements only (greedy, in list order).
std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::span<const std::size_t> which,
                                                     std::size_t num_nodes);

}  // namespace fem

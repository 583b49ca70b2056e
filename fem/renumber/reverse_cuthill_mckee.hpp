#pragma once
// Reverse Cuthill-McKee: breadth-first numbering from a George-Liu pseudo-peripheral node,
// neighbours in order of increasing degree, then reversed (which never raises the profile).
// The root is the better of the two narrowest-level candidates of
// narrow_pseudo_peripheral_roots (level_structure.hpp), by bandwidth then profile.
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

// Each connected component (isolated nodes included) is numbered in turn, contiguously.
Permutation reverse_cuthill_mckee(const NodeGraph& graph);

}  // namespace fem::renumber

#pragma once
// The cheapest good numbering: per connected component, one breadth-first search to find a far
// node (a least-degree node of the last level), a second from there, numbered in that order and
// reversed. Two searches against RCM's dozen (pseudo-peripheral search, several roots, degree
// sorting), it shows what a bandwidth/profile method can reach on the graph: renumber_auto
// measures it before deciding whether the real methods are worth running.
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

// Each component (isolated nodes included) is numbered in turn, contiguously.
Permutation breadth_first_sweep(const NodeGraph& graph);

}  // namespace fem::renumber

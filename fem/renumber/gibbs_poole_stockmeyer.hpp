#pragma once
// Gibbs-Poole-Stockmeyer (1976): a narrow level structure built from both ends of a
// pseudo-diameter, numbered level by level in Cuthill-McKee fashion, then reversed.
// Usually matches RCM's bandwidth with a smaller profile on irregular meshes.
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

// Each connected component (isolated nodes included) is numbered in turn, contiguously.
Permutation gibbs_poole_stockmeyer(const NodeGraph& graph);

}  // namespace fem::renumber

#pragma once
// Sloan (1986, 1989): profile and wavefront reduction. Nodes are numbered one at a time,
// picking the candidate of highest priority P = W1 * (distance to the end of a pseudo-
// diameter) - W2 * (growth of the front if numbered now), so the front advances across the
// mesh from the start end while staying small.
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

struct SloanWeights {
  int distance = 2;  // W1: the pull towards the far end, keeps the ordering global
  int degree = 1;    // W2: the penalty on front growth, keeps the wavefront small
};

// Each connected component (isolated nodes included) is numbered in turn, contiguously.
// Throws std::invalid_argument for negative weights.
Permutation sloan(const NodeGraph& graph, SloanWeights weights = {});

}  // namespace fem::renumber

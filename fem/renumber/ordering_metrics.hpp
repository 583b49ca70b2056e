#pragma once
// Bandwidth, profile and wavefront of the matrix a node graph gives under a numbering, with
// d dofs per node numbered together (node p owns dofs p*d .. p*d+d-1, each node block dense).
// All are exact for the dof matrix, computed in O(nnz of the node graph).
#include <cstdint>

#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

struct OrderingMetrics {
  std::int64_t bandwidth = 0;      // max |i - j| over the nonzeros a_ij
  std::int64_t profile = 0;        // sum over rows i of (i - first nonzero column of row i), lower triangle
  std::int64_t max_wavefront = 0;  // max over i of f_i, f_i = #rows k >= i with a nonzero in a column <= i
  double rms_wavefront = 0;        // sqrt(mean of f_i^2); f_i counts row i itself, so sum f_i = profile + n
};

// Throws std::invalid_argument when the permutation's size differs from the graph's or
// dofs_per_node < 1.
OrderingMetrics ordering_metrics(const NodeGraph& graph, const Permutation& permutation, int dofs_per_node = 1);

}  // namespace fem::renumber

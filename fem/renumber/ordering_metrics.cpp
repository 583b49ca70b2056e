#include "fem/renumber/ordering_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace fem::renumber {

OrderingMetrics ordering_metrics(const NodeGraph& graph, const Permutation& permutation, int dofs_per_node) {
  const int n = graph.num_nodes();
  if (permutation.size() != n)
    throw std::invalid_argument("ordering metrics: permutation of " + std::to_string(permutation.size()) +
                                " nodes for a graph of " + std::to_string(n));
  if (dofs_per_node < 1)
    throw std::invalid_argument("ordering metrics: dofs per node must be >= 1, got " + std::to_string(dofs_per_node));
  OrderingMetrics metrics;
  if (n == 0) return metrics;

  // first[p]: the smallest new number in new node p's row (itself or a neighbour). Every
  // measure follows from it because the pattern is symmetric.
  std::vector<int> first(n);
#pragma omp parallel for schedule(static)
  for (int old = 0; old < n; ++old) {
    int lowest = permutation.new_of_old[old];
    for (int v : graph.neighbours_of(old)) lowest = std::min(lowest, permutation.new_of_old[v]);
    first[permutation.new_of_old[old]] = lowest;
  }

  // Node p is an active row from step first[p] to step p: count with a difference array.
  std::vector<int> active_change(static_cast<std::size_t>(n) + 1, 0);
  std::int64_t node_bandwidth = 0, node_profile = 0;
  for (int p = 0; p < n; ++p) {
    node_bandwidth = std::max<std::int64_t>(node_bandwidth, p - first[p]);
    node_profile += p - first[p];
    ++active_change[first[p]];
    --active_change[p + 1];
  }

  // Dof row p*d + a (a = 0..d-1) has first column d*first[p] and wavefront d*(w_p - 1) + d - a.
  const double d = dofs_per_node;
  std::int64_t node_wavefront = 0, max_node_wavefront = 0;
  double sum_squares = 0;
  const double block_sum = d * (d + 1) / 2, block_sum_squares = d * (d + 1) * (2 * d + 1) / 6;
  for (int p = 0; p < n; ++p) {
    node_wavefront += active_change[p];
    max_node_wavefront = std::max(max_node_wavefront, node_wavefront);
    const double c = d * static_cast<double>(node_wavefront - 1);  // sum over b = 1..d of (c + b)^2
    sum_squares += d * c * c + 2 * c * block_sum + block_sum_squares;
  }

  const std::int64_t dd = dofs_per_node;
  metrics.bandwidth = dd * node_bandwidth + dd - 1;
  metrics.profile = dd * dd * node_profile + static_cast<std::int64_t>(n) * dd * (dd - 1) / 2;
  metrics.max_wavefront = dd * max_node_wavefront;
  metrics.rms_wavefront = std::sqrt(sum_squares / (static_cast<double>(n) * d));
  return metrics;
}

}  // namespace fem::renumber

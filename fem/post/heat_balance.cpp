#include "fem/post/heat_balance.hpp"

#include <cmath>
#include <vector>

#include "fem/physics/element_matrices.hpp"

namespace fem {

HeatBalance heat_balance(const Problem& p, std::span<const double> temperature, std::span<const double> reaction,
                         double source_heat) {
  const Mesh& mesh = *p.mesh;
  HeatBalance b;
  ElementBuffers buffers;
  // Boundary loads: a flux's load, a convection's h T_inf N less its h N Nᵀ T at the solution.
  for (const auto& load : p.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      facet_contribution(p, load, k, buffers);
      const auto nodes = mesh.boundary.nodes_of(load.facets[k]);
      const std::size_t n = nodes.size();
      const bool matrix = buffers.matrix.size() == n * n;
      for (std::size_t a = 0; a < n; ++a) {
        b.applied += buffers.load[a];
        if (matrix)
          for (std::size_t c = 0; c < n; ++c) b.applied -= buffers.matrix[a * n + c] * temperature[nodes[c]];
      }
    }
  b.applied += source_heat;

  std::vector<char> constrained(mesh.num_nodes(), 0);
  for (const auto& condition : p.dirichlet) {
    double& group = b.groups[condition.group];
    for (int node : condition.nodes) {
      group += reaction[node];
      constrained[node] = 1;
    }
  }
  for (std::size_t node = 0; node < mesh.num_nodes(); ++node)
    if (constrained[node]) b.reactions += reaction[node];
  double scale = std::abs(b.applied);
  if (scale == 0)
    for (const auto& [name, group] : b.groups) scale += std::abs(group);
  b.balance = scale > 0 ? std::abs(b.reactions + b.applied) / scale : 0.0;
  return b;
}

}  // namespace fem

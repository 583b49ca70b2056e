#include "fem/assembly/residual.hpp"

#include <cmath>

#include "fem/physics/element_matrices.hpp"

namespace fem {

double element_relative_residual(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                                 std::span<const double> u) {
  const Mesh& mesh = *problem.mesh;
  const int d = dofs.dofs_per_node;
  const auto n = static_cast<std::size_t>(dofs.num_dofs());
  const auto& g = constraints.prescribed;
  std::vector<double> r(n, 0.0), f(n, 0.0), diagonal(n, 0.0);
  ElementBuffers buffers;
  std::vector<std::int64_t> eq;
  // Free rows: K_free,free u_free - (f - K_free,fixed g); fixed rows: K_dd (u_d - g_d).
  auto add = [&](std::span<const int> nodes) {
    const int nd = static_cast<int>(nodes.size()) * d;
    eq.resize(nd);
    for (int i = 0; i < nd; ++i) eq[i] = dofs.dof(nodes[i / d], i % d);
    for (int i = 0; i < nd; ++i) {
      const double* row = &buffers.matrix[static_cast<std::size_t>(i) * nd];
      if (constraints.is_fixed(eq[i])) {
        diagonal[eq[i]] += row[i];
        continue;
      }
      double ku = 0, kg = 0;
      for (int j = 0; j < nd; ++j) {
        if (constraints.is_fixed(eq[j])) kg += row[j] * g[eq[j]];
        else ku += row[j] * u[eq[j]];
      }
      // The constrained system's columns of fixed equations are cleared: their K_ij g_j sits in f.
      r[eq[i]] += ku + kg - buffers.load[i];
      f[eq[i]] += buffers.load[i] - kg;
    }
  };
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    cell_contribution(problem, e, buffers);
    add(mesh.cells.nodes_of(e));
  }
  for (const auto& load : problem.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      facet_contribution(problem, load, k, buffers);
      add(mesh.boundary.nodes_of(load.facets[k]));
    }
  double rr = 0, ff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (constraints.is_fixed(static_cast<std::int64_t>(i))) {
      const double kdd = diagonal[i] > 0 ? diagonal[i] : 1.0;  // as apply_constraints keeps it
      r[i] = kdd * (u[i] - g[i]);
      f[i] = kdd * g[i];
    }
    rr += r[i] * r[i];
    ff += f[i] * f[i];
  }
  return ff > 0 ? std::sqrt(rr / ff) : std::sqrt(rr);
}

}  // namespace fem

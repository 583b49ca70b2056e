#include "fem/post/load_balance.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fem/elements/quadrature.hpp"
#include "fem/physics/element_matrices.hpp"

namespace fem {
namespace {

double norm(const std::array<double, 3>& v) { return std::hypot(v[0], v[1], v[2]); }

}  // namespace

void add_force(Resultant& r, const double* x, const double* f, const std::array<double, 3>& about) {
  const double d[3] = {x[0] - about[0], x[1] - about[1], x[2] - about[2]};
  for (int k = 0; k < 3; ++k) r.force[k] += f[k];
  r.moment[0] += d[1] * f[2] - d[2] * f[1];
  r.moment[1] += d[2] * f[0] - d[0] * f[2];
  r.moment[2] += d[0] * f[1] - d[1] * f[0];
}

double balance_measure(const Resultant& applied, const Resultant& reactions,
                       const std::map<std::string, Resultant>& groups, double length) {
  const double L = std::max(length, 1e-300);
  const auto size = [&](const Resultant& r) { return norm(r.force) + norm(r.moment) / L; };
  double scale = size(applied);
  if (scale == 0)
    for (const auto& [name, group] : groups) scale += size(group);
  Resultant sum;
  for (int k = 0; k < 3; ++k) {
    sum.force[k] = reactions.force[k] + applied.force[k];
    sum.moment[k] = reactions.moment[k] + applied.moment[k];
  }
  return scale > 0 ? size(sum) / scale : 0.0;
}

namespace {


// The nodal loads of an element (n nodes x d, node-major) added to r.
void add_nodal(Resultant& r, const Mesh& mesh, std::span<const int> nodes, const std::vector<double>& load, int d,
               const std::array<double, 3>& about) {
  for (std::size_t a = 0; a < nodes.size(); ++a) {
    double f[3] = {0, 0, 0};
    for (int c = 0; c < d; ++c) f[c] = load[a * d + c];
    add_force(r, &mesh.coords[3 * static_cast<std::size_t>(nodes[a])], f, about);
  }
}

Resultant applied_loads(const Problem& p, const std::array<double, 3>& about) {
  const Mesh& mesh = *p.mesh;
  const int d = p.physics.dofs_per_node();
  Resultant total;
  ElementBuffers buffers;
  for (const auto& load : p.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      facet_contribution(p, load, k, buffers);
      add_nodal(total, mesh, mesh.boundary.nodes_of(load.facets[k]), buffers.load, d, about);
    }
  const bool body = p.body || std::any_of(p.gravity.begin(), p.gravity.end(), [](double g) { return g != 0; });
  if (!body) return total;
  // Each thread sums a fixed block of cells; the blocks are added in order, so the total does not
  // depend on the timing of the threads.
  const auto cells = static_cast<std::int64_t>(mesh.cells.size());
  std::vector<Resultant> partial(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel
  {
    Resultant& mine = partial[static_cast<std::size_t>(omp_get_thread_num())];
    std::vector<double> coords, load;
#pragma omp for schedule(static)
    for (std::int64_t e = 0; e < cells; ++e) {
      const auto cell = static_cast<std::size_t>(e);
      const ElementType type = mesh.cells.type[cell];
      const auto nodes = mesh.cells.nodes_of(cell);
      gather_coords(mesh, nodes, coords);
      load.assign(nodes.size() * d, 0.0);
      for (const auto& q : quadrature_rule(element_info(type).shape, stiffness_quadrature_degree(type)))
        add_cell_body_load(p, cell, map_volume_point(type, coords, p.physics.space_dim, q.xi.data()), q.weight, load);
      add_nodal(mine, mesh, nodes, load, d, about);
    }
  }
  for (const Resultant& r : partial)
    for (int k = 0; k < 3; ++k) total.force[k] += r.force[k], total.moment[k] += r.moment[k];
  return total;
}

}  // namespace

LoadBalance load_balance(const Problem& problem, std::span<const double> reaction, const std::array<double, 3>& about) {
  const Mesh& mesh = *problem.mesh;
  LoadBalance b;
  b.about = about;
  b.applied = applied_loads(problem, about);
  std::vector<char> constrained(mesh.num_nodes(), 0);
  for (const auto& condition : problem.dirichlet) {
    Resultant& group = b.groups[condition.group];
    for (int n : condition.nodes) {
      const auto node = static_cast<std::size_t>(n);
      double f[3] = {0, 0, 0};
      for (int c = 0; c < 3; ++c)
        if (condition.component[c]) f[c] = reaction[3 * node + c];
      add_force(group, &mesh.coords[3 * node], f, about);
      constrained[node] = 1;
    }
  }
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    if (constrained[n]) add_force(b.reactions, &mesh.coords[3 * n], &reaction[3 * n], about);
  if (problem.physics.axisymmetric()) {
    // A full ring's radial forces and moments cancel around it: its resultant is the axial force.
    const auto ring = [](Resultant& r) { r.force[0] = 0, r.moment = {0, 0, 0}; };
    ring(b.applied);
    ring(b.reactions);
    for (auto& [name, group] : b.groups) ring(group);
  }

  std::array<double, 3> lo{}, hi{};
  for (int k = 0; k < 3; ++k) lo[k] = hi[k] = mesh.coords.empty() ? 0.0 : mesh.coords[k];
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], mesh.coords[3 * n + k]), hi[k] = std::max(hi[k], mesh.coords[3 * n + k]);
  b.balance = balance_measure(b.applied, b.reactions, b.groups, std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]));
  return b;
}

}  // namespace fem

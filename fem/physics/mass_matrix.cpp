#include "fem/physics/mass_matrix.hpp"

#include <cmath>

#include "fem/elements/quadrature.hpp"

namespace fem {

double inertia_coefficient(const PhysicsModel& physics, const IsotropicMaterial& m) {
  return physics.type == PhysicsType::Heat ? m.density * m.specific_heat : m.density;
}

void cell_mass(const Problem& p, std::size_t cell, MassLumping lumping, ElementBuffers& out) {
  const Mesh& mesh = *p.mesh;
  const ElementType type = mesh.cells.type[cell];
  const auto& info = element_info(type);
  const int n = info.num_nodes;
  const int d = p.physics.dofs_per_node();
  const int nd = n * d;
  gather_coords(mesh, mesh.cells.nodes_of(cell), out.coords);
  const double rho = inertia_coefficient(p.physics, p.materials[p.cell_material[cell]]);

  // The scalar matrix N N^T first (n squared, in the top-left of out.matrix), then spread over
  // the d components.
  out.matrix.assign(static_cast<std::size_t>(nd) * nd, 0.0);
  out.load.clear();
  double* s = out.matrix.data();
  for (const auto& q : quadrature_rule(info.shape, mass_quadrature_degree(type))) {
    const VolumePoint vp = map_volume_point(type, out.coords, p.physics.space_dim, q.xi.data());
    const double w = q.weight * std::abs(vp.detJ) * p.physics.out_of_plane(vp.x) * rho;
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) s[a * n + b] += w * vp.N[a] * vp.N[b];
  }
  if (lumping == MassLumping::Lumped) {
    double total = 0, diagonal = 0;
    for (int a = 0; a < n; ++a) {
      diagonal += s[a * n + a];
      for (int b = 0; b < n; ++b) total += s[a * n + b];
    }
    for (int a = 0; a < n; ++a) {
      double lumped = 0;
      if (info.order == 1)
        for (int b = 0; b < n; ++b) lumped += s[a * n + b];
      else
        lumped = s[a * n + a] * total / diagonal;
      for (int b = 0; b < n; ++b) s[a * n + b] = 0;
      s[a * n + a] = lumped;  // rows below a are still whole: only row a was read and cleared
    }
  }
  if (d == 1) return;
  // Spread from the last entry back, so no scalar entry is overwritten before it is read.
  for (int a = n - 1; a >= 0; --a)
    for (int b = n - 1; b >= 0; --b) {
      const double v = s[a * n + b];
      s[a * n + b] = 0;
      for (int i = 0; i < d; ++i) s[static_cast<std::size_t>(a * d + i) * nd + b * d + i] = v;
    }
}

}  // namespace fem

#include "fem/physics/resultant_load.hpp"

#include <cmath>
#include <stdexcept>

#include "fem/physics/element_matrices.hpp"

namespace fem {
namespace {

// The group's area, centroid and second moments I = integral (|r|^2 1 - r r^T), r = x - c.
struct AreaMoments {
  double area = 0;
  std::array<double, 3> centroid{};
  double inertia[3][3] = {};
};

// Calls visit(x, w) at every point of facet_contribution's quadrature of the load's facets.
template <class Visit>
void for_each_point(const Problem& p, const BoundaryLoad& load, Visit visit) {
  const Mesh& mesh = *p.mesh;
  std::vector<double> coords;
  for (auto f : load.facets) {
    const ElementType type = mesh.boundary.type[f];
    gather_coords(mesh, mesh.boundary.nodes_of(f), coords);
    for (const auto& q : facet_load_rule(type)) {
      const FacetPoint fp = map_facet_point(type, coords, q.xi.data());
      visit(fp.x, q.weight * fp.measure * p.physics.out_of_plane(fp.x));
    }
  }
}

AreaMoments area_moments(const Problem& p, const BoundaryLoad& load) {
  AreaMoments m;
  double first[3] = {0, 0, 0};
  for_each_point(p, load, [&](const double* x, double w) {
    m.area += w;
    for (int k = 0; k < 3; ++k) first[k] += w * x[k];
  });
  if (!(m.area > 0)) throw std::invalid_argument("the group has no area to spread a load over");
  for (int k = 0; k < 3; ++k) m.centroid[k] = first[k] / m.area;
  for_each_point(p, load, [&](const double* x, double w) {
    const double r[3] = {x[0] - m.centroid[0], x[1] - m.centroid[1], x[2] - m.centroid[2]};
    const double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m.inertia[i][j] += w * ((i == j ? rr : 0.0) - r[i] * r[j]);
  });
  return m;
}

// omega = I^-1 M by the adjugate; refused when I is singular to rounding (a group on one line
// has no second moment about that line).
std::array<double, 3> solve_inertia(const double I[3][3], const std::array<double, 3>& M) {
  double adj[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
      adj[i][j] = I[r0][c0] * I[r1][c1] - I[r0][c1] * I[r1][c0];
    }
  const double det = I[0][0] * adj[0][0] + I[0][1] * adj[1][0] + I[0][2] * adj[2][0];
  const double trace = I[0][0] + I[1][1] + I[2][2];
  if (!(std::abs(det) > 1e-12 * trace * trace * trace))
    throw std::invalid_argument("the group lies on one line: it has no second moment of area about that line to carry the couple");
  std::array<double, 3> omega{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) omega[i] += adj[i][j] * M[j] / det;
  return omega;
}

}  // namespace

void spread_resultant(const Problem& p, BoundaryLoad& load) {
  using K = BoundaryLoad::Kind;
  const bool plane = p.physics.space_dim == 2;
  const auto v = load.vector;
  const AreaMoments m = area_moments(p, load);
  // Around a full ring radial forces and every couple cancel: only an axial total means anything.
  if (p.physics.axisymmetric() && (load.kind == K::Moment || v[0] != 0))
    throw std::invalid_argument("an axisymmetric model takes a total force along the axis only ([0, Fy], on the full ring): "
                                "radial forces and couples cancel around the ring; give a traction or pressure instead");
  if (load.kind == K::Force) {
    if (plane && v[2] != 0) throw std::invalid_argument("a 2D model takes no force along z");
    for (int k = 0; k < 3; ++k) load.vector[k] = v[k] / m.area;
  } else if (load.kind == K::Moment) {
    if (plane && (v[0] != 0 || v[1] != 0))
      throw std::invalid_argument("a 2D model takes a moment about z only (write it as one number)");
    const auto omega = plane ? std::array<double, 3>{0, 0, v[2] / m.inertia[2][2]} : solve_inertia(m.inertia, v);
    const auto c = m.centroid;
    load.vector = {0, 0, 0};
    load.function = [omega, c](const double* x, double* t) {
      const double r[3] = {x[0] - c[0], x[1] - c[1], x[2] - c[2]};
      t[0] = omega[1] * r[2] - omega[2] * r[1];
      t[1] = omega[2] * r[0] - omega[0] * r[2];
      t[2] = omega[0] * r[1] - omega[1] * r[0];
    };
  } else {
    throw std::logic_error("spread_resultant: not a force or moment load");
  }
  load.kind = K::Traction;
}

}  // namespace fem

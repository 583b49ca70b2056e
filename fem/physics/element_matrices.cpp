#include "fem/physics/element_matrices.hpp"

#include <algorithm>
#include <cmath>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/shape_table.hpp"
#include "fem/physics/thermal_strain.hpp"
#include "kernels/shared/element_stiffness.hpp"

namespace fem {

void gather_coords(const Mesh& mesh, std::span<const int> nodes, std::vector<double>& out) {
  out.resize(3 * nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (int k = 0; k < 3; ++k) out[3 * i + k] = mesh.coords[3 * static_cast<std::size_t>(nodes[i]) + k];
}

namespace {

// The body force per unit volume of a cell's material: gravity times density, or the heat
// source; `p.body`, when set, gives it point by point instead.
struct BodyForce {
  double value[3] = {0, 0, 0};
  bool present = false;
};

BodyForce body_force(const Problem& p, const IsotropicMaterial& m) {
  BodyForce body;
  if (p.physics.type == PhysicsType::Elasticity)
    for (int k = 0; k < p.physics.space_dim; ++k) body.value[k] = m.density * p.gravity[k];
  else
    body.value[0] = p.source;
  body.present = p.body || std::any_of(body.value, body.value + 3, [](double v) { return v != 0; });
  return body;
}

// Adds one integration point's share (weight w) of the body load to the n nodes' loads.
void add_body_load(const Problem& p, const BodyForce& body, const VolumePoint& vp, double w, int n, int d,
                   std::vector<double>& load) {
  double f[3] = {body.value[0], body.value[1], body.value[2]};
  if (p.body) p.body(vp.x, f);
  for (int a = 0; a < n; ++a)
    for (int c = 0; c < d; ++c) load[a * d + c] += w * vp.N[a] * f[c];
}

// The point as map_volume_point gives it, from what the tabulated loop computed.
VolumePoint volume_point(int n, const double* N, const double* gradients, const double* x, double det) {
  VolumePoint vp;
  std::copy(N, N + n, vp.N);
  std::copy(gradients, gradients + 3 * n, vp.dNdx);
  std::copy(x, x + 3, vp.x);
  vp.detJ = det;
  return vp;
}

void throw_inverted(std::size_t cell, const ElementTypeInfo& info, double det) {
  throw InvertedElement(cell, "element " + std::to_string(cell) + " (" + std::string(info.name) +
                                  ") is inverted or degenerate: its Jacobian determinant is " + std::to_string(det) +
                                  " at a quadrature point");
}

// P[r][c] = sum over the points q of W[q][r] V[q][c] (rows of `columns` values per point), for
// the columns c from (r / E) E on: the node pairs b >= a of an elastic G. Four columns at a time
// held in registers over the points, so that each sum is stored once.
template <int E>
void sum_over_points(int points, int columns, const double* W, const double* V, double* P) {
  constexpr int kTile = 4;
  for (int r = 0; r < columns; ++r) {
    double* row = &P[static_cast<std::size_t>(r) * columns];
    int c = r / E * E;
    for (; c + kTile <= columns; c += kTile) {
      double acc[kTile] = {};
      for (int q = 0; q < points; ++q) {
        const double wr = W[q * columns + r];
        const double* v = &V[q * columns + c];
        for (int k = 0; k < kTile; ++k) acc[k] += wr * v[k];
      }
      for (int k = 0; k < kTile; ++k) row[c + k] = acc[k];
    }
    for (; c < columns; ++c) {
      double acc = 0;
      for (int q = 0; q < points; ++q) acc += W[q * columns + r] * V[q * columns + c];
      row[c] = acc;
    }
  }
}

// Sums the pair terms of every quadrature point into out.pairs and the body and thermal loads
// into out.load. Elasticity: G = sum w g g^T over the extended gradients, rows (a, i) and columns
// (b, j) of n E each, node-major, the columns of b >= a only (sum_over_points). Conduction:
// w g_a . g_b at (a, b), b >= a. Dim is the space's dimension, E the gradient's components
// (3 axisymmetric: the hoop term last).
template <int Dim, int E>
void integrate_cell(const Problem& p, std::size_t cell, const ElementTypeInfo& info, const IsotropicMaterial& m,
                    ElementBuffers& out) {
  namespace es = element_stiffness;
  const ShapeTable& table = stiffness_shape_table(info.type);
  const int n = info.num_nodes;
  const bool elastic = p.physics.type == PhysicsType::Elasticity;
  const bool axisymmetric = elastic && p.physics.axisymmetric();
  const int columns = elastic ? n * E : n;
  const std::size_t per_point = static_cast<std::size_t>(n) * E;
  if (elastic) out.pairs.resize(static_cast<std::size_t>(columns) * columns);
  else out.pairs.assign(static_cast<std::size_t>(columns) * columns, 0.0);
  out.gradients.resize(3 * static_cast<std::size_t>(n) + 2 * per_point * table.points);
  const BodyForce body = body_force(p, m);
  const bool heated = elastic && !p.temperature.empty() && m.alpha != 0;
  double* g = out.gradients.data();               // 3 per node, at one point
  double* V = g + 3 * n;                           // per point: E per node
  double* W = V + per_point * table.points;        // per point: V times the point's weight
  double sign = 0;
  for (int q = 0; q < table.points; ++q) {
    const double* N = &table.N[static_cast<std::size_t>(q) * n];
    const double* dN = &table.dN[static_cast<std::size_t>(q) * n * Dim];
    double x[3], inv[3][3] = {};
    const double det = es::map_point<Dim>(n, out.coords.data(), N, dN, x, inv);
    // 2D meshes may be wound either way; a cell is inverted when its Jacobian vanishes or
    // changes sign inside it, and in 3D whenever it is not positive.
    const double s = det > 0 ? 1.0 : -1.0;
    if (sign == 0) sign = s;
    if (det == 0 || s != sign || (Dim == 3 && s < 0)) throw_inverted(cell, info, det);
    const double w = table.weight[q] * std::abs(det) * p.physics.out_of_plane(x);
    for (int a = 0; a < n; ++a) {
      es::physical_gradient<Dim>(&dN[a * Dim], inv, &g[3 * a]);
      if (axisymmetric) g[3 * a + 2] = N[a] / x[0];
    }
    if (elastic) {
      for (int a = 0; a < n; ++a)
        for (int i = 0; i < E; ++i) {
          V[q * per_point + a * E + i] = g[3 * a + i];
          W[q * per_point + a * E + i] = w * g[3 * a + i];
        }
    } else {
      for (int a = 0; a < n; ++a)
        for (int b = a; b < n; ++b) es::add_dot_pair<Dim>(w, &g[3 * a], &g[3 * b], &out.pairs[a * n + b]);
    }
    if (body.present || heated) {
      VolumePoint vp = volume_point(n, N, g, x, det);
      if (axisymmetric)  // the hoop term in the third component is not a gradient
        for (int a = 0; a < n; ++a) vp.dNdx[3 * a + 2] = 0;
      if (body.present) add_body_load(p, body, vp, w, n, p.physics.dofs_per_node(), out.load);
      if (heated) add_thermal_load(p.physics, m, temperature_rise(p, p.mesh->cells.nodes_of(cell), vp, m), vp, w, n, out.load);
    }
  }
  if (elastic) sum_over_points<E>(table.points, columns, W, V, out.pairs.data());
}

// The element matrix from integrate_cell's sums: block (a, b) for b >= a, mirrored into (b, a).
template <int Dim, int E>
void finish_matrix(const Problem& p, const ElementTypeInfo& info, const IsotropicMaterial& m, ElementBuffers& out) {
  const int n = info.num_nodes;
  const int d = p.physics.dofs_per_node();
  const int nd = n * d;
  const bool elastic = p.physics.type == PhysicsType::Elasticity;
  element_stiffness::ElasticMaterial law;
  if (elastic) {
    const LameConstants lame = lame_constants(p.physics.model, m);
    law = {lame.lambda, lame.mu};
  }
  out.matrix.resize(static_cast<std::size_t>(nd) * nd);
  double* K = out.matrix.data();
  const int columns = elastic ? n * E : n;
  for (int a = 0; a < n; ++a)
    for (int b = a; b < n; ++b) {
      double* block = &K[static_cast<std::size_t>(a * d) * nd + b * d];
      if (elastic)
        element_stiffness::pair_block<Dim, E>(law, &out.pairs[static_cast<std::size_t>(a * E) * columns + b * E], columns,
                                              block, nd);
      else block[0] = m.k * out.pairs[static_cast<std::size_t>(a) * n + b];
      if (b == a) continue;
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
          K[static_cast<std::size_t>(b * d + j) * nd + a * d + i] = block[static_cast<std::size_t>(i) * nd + j];
    }
}

template <int Dim, int E>
void cell_stiffness(const Problem& p, std::size_t cell, const ElementTypeInfo& info, const IsotropicMaterial& m,
                    ElementBuffers& out) {
  integrate_cell<Dim, E>(p, cell, info, m, out);
  finish_matrix<Dim, E>(p, info, m, out);
}

}  // namespace

void cell_contribution(const Problem& p, std::size_t cell, ElementBuffers& out) {
  const Mesh& mesh = *p.mesh;
  const auto& info = element_info(mesh.cells.type[cell]);
  const int dim = p.physics.space_dim;
  if (info.dimension != dim || (dim != 2 && dim != 3))
    throw std::invalid_argument("cell_contribution: a " + std::string(info.name) + " is not a cell of a " +
                                std::to_string(dim) + "D space (2D cells in 2D, 3D cells in 3D)");
  gather_coords(mesh, mesh.cells.nodes_of(cell), out.coords);
  out.load.assign(static_cast<std::size_t>(info.num_nodes) * p.physics.dofs_per_node(), 0.0);
  const IsotropicMaterial& m = p.materials[p.cell_material[cell]];
  const bool elastic = p.physics.type == PhysicsType::Elasticity;
  if (dim == 3) cell_stiffness<3, 3>(p, cell, info, m, out);
  else if (elastic && p.physics.axisymmetric()) cell_stiffness<2, 3>(p, cell, info, m, out);
  else cell_stiffness<2, 2>(p, cell, info, m, out);
}

void add_cell_body_load(const Problem& p, std::size_t cell, const VolumePoint& vp, double quadrature_weight,
                        std::vector<double>& load) {
  const BodyForce body = body_force(p, p.materials[p.cell_material[cell]]);
  if (!body.present) return;
  const double w = quadrature_weight * std::abs(vp.detJ) * p.physics.out_of_plane(vp.x);
  add_body_load(p, body, vp, w, element_info(p.mesh->cells.type[cell]).num_nodes, p.physics.dofs_per_node(), load);
}

bool has_body_load(const Problem& p) {
  return std::any_of(p.materials.begin(), p.materials.end(), [&](const IsotropicMaterial& m) { return body_force(p, m).present; });
}

std::array<double, 3> uniform_body_force(const Problem& p, const IsotropicMaterial& m) {
  const BodyForce body = body_force(p, m);
  return {body.value[0], body.value[1], body.value[2]};
}

bool cell_body_load(const Problem& p, std::size_t cell, ElementBuffers& out) {
  const BodyForce body = body_force(p, p.materials[p.cell_material[cell]]);
  if (!body.present) return false;
  const Mesh& mesh = *p.mesh;
  const ElementType type = mesh.cells.type[cell];
  const auto& info = element_info(type);
  const int d = p.physics.dofs_per_node();
  gather_coords(mesh, mesh.cells.nodes_of(cell), out.coords);
  out.load.assign(static_cast<std::size_t>(info.num_nodes) * d, 0.0);
  // The points and weights of cell_contribution, so that both give the same load to the last bit.
  for (const auto& q : quadrature_rule(info.shape, stiffness_quadrature_degree(type))) {
    const VolumePoint vp = map_volume_point(type, out.coords, p.physics.space_dim, q.xi.data());
    add_body_load(p, body, vp, q.weight * std::abs(vp.detJ) * p.physics.out_of_plane(vp.x), info.num_nodes, d, out.load);
  }
  return true;
}

const std::vector<QuadraturePoint>& facet_load_rule(ElementType type) {
  const auto& info = element_info(type);
  return quadrature_rule(info.shape, 2 * info.order + 1);
}

void facet_contribution(const Problem& p, const BoundaryLoad& load, std::size_t index, ElementBuffers& out) {
  using K = BoundaryLoad::Kind;
  const Mesh& mesh = *p.mesh;
  const std::size_t facet = load.facets[index];
  const ElementType type = mesh.boundary.type[facet];
  const auto& info = element_info(type);
  const int n = info.num_nodes;
  const int d = p.physics.dofs_per_node();
  const int nd = n * d;
  gather_coords(mesh, mesh.boundary.nodes_of(facet), out.coords);
  out.matrix.assign(static_cast<std::size_t>(nd) * nd, 0.0);
  out.load.assign(nd, 0.0);
  for (const auto& q : facet_load_rule(type)) {
    const FacetPoint fp = map_facet_point(type, out.coords, q.xi.data());
    const double w = q.weight * fp.measure * p.physics.out_of_plane(fp.x);
    double t[3] = {0, 0, 0};
    switch (load.kind) {
      case K::Traction:
        std::copy(load.vector.begin(), load.vector.end(), t);
        if (load.function) load.function(fp.x, t);
        break;
      case K::Pressure:  // pushes into the body: against the outward normal
        for (int k = 0; k < 3; ++k) t[k] = -load.value * load.outward[index] * fp.normal[k];
        break;
      case K::Flux:
        t[0] = load.value;
        if (load.function) load.function(fp.x, t);
        break;
      case K::Convection:
        t[0] = load.h * load.T_inf;
        for (int a = 0; a < n; ++a)
          for (int b = 0; b < n; ++b) out.matrix[static_cast<std::size_t>(a) * nd + b] += w * load.h * fp.N[a] * fp.N[b];
        break;
      default:
        throw std::logic_error("facet_contribution: not a boundary load");
    }
    for (int a = 0; a < n; ++a)
      for (int c = 0; c < d; ++c) out.load[a * d + c] += w * fp.N[a] * t[c];
  }
}

}  // namespace fem

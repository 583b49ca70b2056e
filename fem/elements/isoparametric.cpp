#include "fem/elements/isoparametric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fem/elements/quadrature.hpp"

namespace fem {
namespace {

void check_coords(const ElementTypeInfo& info, std::span<const double> node_coords) {
  if (node_coords.size() != std::size_t(3 * info.num_nodes))
    throw std::invalid_argument("a " + std::string(info.name) + " needs " +
                                std::to_string(3 * info.num_nodes) +
                                " node coordinates (x, y, z per node), got " +
                                std::to_string(node_coords.size()));
}

// Physical point and the tangent vectors dx/dxi_j (3 components each) from N and dN.
// Accumulates in locals: through the output pointers the compiler would assume aliasing.
template <int Dim>
void map_point(int num_nodes, std::span<const double> xyz, const double* N, const double* dN,
               double* x, double (*tangent)[3]) {
  double px[3] = {0, 0, 0}, t[Dim][3] = {};
  for (int i = 0; i < num_nodes; ++i) {
    for (int a = 0; a < 3; ++a) {
      const double c = xyz[i * 3 + a];
      px[a] += N[i] * c;
      for (int j = 0; j < Dim; ++j) t[j][a] += dN[i * Dim + j] * c;
    }
  }
  for (int a = 0; a < 3; ++a) {
    x[a] = px[a];
    for (int j = 0; j < Dim; ++j) tangent[j][a] = t[j][a];
  }
}

// A determinant this small against the tangents' lengths is the roundoff of a flat element.
constexpr double kDegenerateRatio = 1e-12;

double length(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

void cross(const double* u, const double* v, double* w) {
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

// det J and inv[j][a] = dxi_j/dx_a (adjugate / det) from the tangents t[j] = column j of J.
// A flat element gets det 0 and inv left 0.
template <int Dim>
double invert_jacobian(const double (*t)[3], double (*inv)[3]) {
  double scale = 1;
  for (int j = 0; j < Dim; ++j) scale *= length(t[j]);
  if constexpr (Dim == 2) {
    const double det = t[0][0] * t[1][1] - t[1][0] * t[0][1];
    if (std::abs(det) <= kDegenerateRatio * scale) return 0;
    const double r = 1 / det;
    inv[0][0] = t[1][1] * r;
    inv[0][1] = -t[1][0] * r;
    inv[1][0] = -t[0][1] * r;
    inv[1][1] = t[0][0] * r;
    return det;
  } else {
    // The rows of J^-1 are the cross products of J's columns, over det.
    double bc[3], ca[3], ab[3];
    cross(t[1], t[2], bc);
    cross(t[2], t[0], ca);
    cross(t[0], t[1], ab);
    const double det = t[0][0] * bc[0] + t[0][1] * bc[1] + t[0][2] * bc[2];
    if (std::abs(det) <= kDegenerateRatio * scale) return 0;
    const double r = 1 / det;
    for (int k = 0; k < 3; ++k) {
      inv[0][k] = bc[k] * r;
      inv[1][k] = ca[k] * r;
      inv[2][k] = ab[k] * r;
    }
    return det;
  }
}

// Everything after the shape functions, with the dimension known at compile time.
template <int Dim>
void fill_volume_point(int num_nodes, std::span<const double> xyz, const double* dN, VolumePoint& p) {
  double t[Dim][3];
  map_point<Dim>(num_nodes, xyz, p.N, dN, p.x, t);
  double inv[3][3] = {};
  p.detJ = invert_jacobian<Dim>(t, inv);
  for (int i = 0; i < num_nodes; ++i)
    for (int a = 0; a < 3; ++a) {
      double g = 0;
      for (int j = 0; j < Dim; ++j) g += dN[i * Dim + j] * inv[j][a];
      p.dNdx[i * 3 + a] = g;
    }
}

}  // namespace

VolumePoint map_volume_point(ElementType type, std::span<const double> node_coords, int space_dim,
                             const double* xi) {
  const auto& info = element_info(type);
  if (info.dimension != space_dim || (space_dim != 2 && space_dim != 3))
    throw std::invalid_argument("map_volume_point: a " + std::string(info.name) +
                                " is not a cell of a " + std::to_string(space_dim) +
                                "D space (2D cells in 2D, 3D cells in 3D)");
  check_coords(info, node_coords);

  VolumePoint p;
  double dN[kMaxElementNodes * 3];
  shape_functions_and_derivatives(type, xi, p.N, dN);
  if (space_dim == 2)
    fill_volume_point<2>(info.num_nodes, node_coords, dN, p);
  else
    fill_volume_point<3>(info.num_nodes, node_coords, dN, p);
  return p;
}

FacetPoint map_facet_point(ElementType type, std::span<const double> node_coords, const double* xi) {
  const auto& info = element_info(type);
  if (info.dimension != 1 && info.dimension != 2)
    throw std::invalid_argument("map_facet_point: a " + std::string(info.name) +
                                " is not a line or surface element");
  check_coords(info, node_coords);
  const int dim = info.dimension, n = info.num_nodes;

  FacetPoint p;
  double dN[kMaxElementNodes * 3];
  shape_functions_and_derivatives(type, xi, p.N, dN);
  double t[2][3];
  double normal[3];
  if (dim == 1) {
    map_point<1>(n, node_coords, p.N, dN, p.x, t);
    normal[0] = t[0][1];
    normal[1] = -t[0][0];
    normal[2] = 0;
    p.measure = length(t[0]);
  } else {
    map_point<2>(n, node_coords, p.N, dN, p.x, t);
    cross(t[0], t[1], normal);
    p.measure = length(normal);
  }
  const double r = p.measure > 0 ? 1 / p.measure : 0;
  for (int a = 0; a < 3; ++a) p.normal[a] = normal[a] * r;
  return p;
}

double jacobian_ratio(ElementType type, std::span<const double> node_coords, int space_dim) {
  const auto& rule = quadrature_rule(element_info(type).shape, stiffness_quadrature_degree(type));
  double lowest = INFINITY, largest_magnitude = 0;
  for (const auto& q : rule) {
    const double det = map_volume_point(type, node_coords, space_dim, q.xi.data()).detJ;
    lowest = std::min(lowest, det);
    largest_magnitude = std::max(largest_magnitude, std::abs(det));
  }
  return largest_magnitude > 0 ? lowest / largest_magnitude : 0;
}

}  // namespace fem

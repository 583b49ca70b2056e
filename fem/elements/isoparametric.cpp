#include "fem/elements/isoparametric.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "fem/elements/quadrature.hpp"
#include "kernels/shared/element_stiffness.hpp"

namespace fem {
namespace {

void check_coords(const ElementTypeInfo& info, std::span<const double> node_coords) {
  if (node_coords.size() != std::size_t(3 * info.num_nodes))
    throw std::invalid_argument("a " + std::string(info.name) + " needs " +
                                std::to_string(3 * info.num_nodes) +
                                " node coordinates (x, y, z per node), got " +
                                std::to_string(node_coords.size()));
}

double length(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

void cross(const double* u, const double* v, double* w) {
  w[0] = u[1] * v[2] - u[2] * v[1];
  w[1] = u[2] * v[0] - u[0] * v[2];
  w[2] = u[0] * v[1] - u[1] * v[0];
}

// Everything after the shape functions, with the dimension known at compile time.
template <int Dim>
void fill_volume_point(int num_nodes, std::span<const double> xyz, const double* dN, VolumePoint& p) {
  double inv[3][3] = {};
  p.detJ = element_stiffness::map_point<Dim>(num_nodes, xyz.data(), p.N, dN, p.x, inv);
  for (int i = 0; i < num_nodes; ++i) element_stiffness::physical_gradient<Dim>(&dN[i * Dim], inv, &p.dNdx[i * 3]);
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
    element_stiffness::tangents<1>(n, node_coords.data(), p.N, dN, p.x, t);
    normal[0] = t[0][1];
    normal[1] = -t[0][0];
    normal[2] = 0;
    p.measure = length(t[0]);
  } else {
    element_stiffness::tangents<2>(n, node_coords.data(), p.N, dN, p.x, t);
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

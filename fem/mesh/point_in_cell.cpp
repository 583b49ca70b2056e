#include "fem/mesh/point_in_cell.hpp"

#include <algorithm>
#include <cmath>

#include "fem/elements/reference_element.hpp"

namespace fem {
namespace {

// How far inside the reference element (a fraction of its size) a point must be: points on a
// shared face come out within roundoff of it, and an overlap thinner than this is harmless.
constexpr double kInsideMargin = 1e-6;
// Newton stops once a step moves the reference point less than this, or after this many steps
// (the map is polynomial of degree at most 2 per coordinate: it converges in a few).
constexpr double kNewtonStep = 1e-10;
constexpr int kNewtonIterations = 30;
// A reference point this far out is outside whatever Newton would still do.
constexpr double kFarOutside = 10;

bool is_simplex(ElementShape shape) { return shape == ElementShape::Triangle || shape == ElementShape::Tetrahedron; }

bool inside_reference(ElementShape shape, int dim, const double* xi) {
  if (is_simplex(shape)) {
    double sum = 0;
    for (int j = 0; j < dim; ++j) {
      if (!(xi[j] > kInsideMargin)) return false;
      sum += xi[j];
    }
    return 1 - sum > kInsideMargin;
  }
  for (int j = 0; j < dim; ++j)
    if (!(std::abs(xi[j]) < 1 - 2 * kInsideMargin)) return false;
  return true;
}

// Solves the dim x dim system J d = r (Cramer's rule); false where J is singular.
bool solve(int dim, const double (*J)[3], const double* r, double* d) {
  if (dim == 2) {
    const double det = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    if (det == 0 || !std::isfinite(det)) return false;
    d[0] = (r[0] * J[1][1] - J[0][1] * r[1]) / det;
    d[1] = (J[0][0] * r[1] - r[0] * J[1][0]) / det;
    return true;
  }
  const auto det3 = [](double a00, double a01, double a02, double a10, double a11, double a12, double a20, double a21, double a22) {
    return a00 * (a11 * a22 - a12 * a21) - a01 * (a10 * a22 - a12 * a20) + a02 * (a10 * a21 - a11 * a20);
  };
  const double det = det3(J[0][0], J[0][1], J[0][2], J[1][0], J[1][1], J[1][2], J[2][0], J[2][1], J[2][2]);
  if (det == 0 || !std::isfinite(det)) return false;
  d[0] = det3(r[0], J[0][1], J[0][2], r[1], J[1][1], J[1][2], r[2], J[2][1], J[2][2]) / det;
  d[1] = det3(J[0][0], r[0], J[0][2], J[1][0], r[1], J[1][2], J[2][0], r[2], J[2][2]) / det;
  d[2] = det3(J[0][0], J[0][1], r[0], J[1][0], J[1][1], r[1], J[2][0], J[2][1], r[2]) / det;
  return true;
}

// A linear triangle or tetrahedron maps affinely: one solve from its first corner gives the
// reference point (meshes of simplices test many candidates per point, so this path is the hot one).
bool inside_linear_simplex(const ElementTypeInfo& info, std::span<const double> xyz, const double* point) {
  const int dim = info.dimension;
  double J[3][3], r[3], xi[3];
  for (int a = 0; a < dim; ++a) {
    r[a] = point[a] - xyz[static_cast<std::size_t>(a)];
    for (int j = 0; j < dim; ++j) J[a][j] = xyz[static_cast<std::size_t>(3 * (j + 1) + a)] - xyz[static_cast<std::size_t>(a)];
  }
  return solve(dim, J, r, xi) && inside_reference(info.shape, dim, xi);
}

}  // namespace

bool point_strictly_inside(ElementType type, std::span<const double> node_coords, const double* point) {
  const auto& info = element_info(type);
  if (type == ElementType::Tri3 || type == ElementType::Tet4) return inside_linear_simplex(info, node_coords, point);
  const int dim = info.dimension, n = info.num_nodes;
  double xi[3] = {0, 0, 0};
  if (is_simplex(info.shape)) std::fill(xi, xi + dim, 1.0 / (dim + 1));  // the centroid
  double N[kMaxElementNodes], dN[kMaxElementNodes * 3];
  for (int iteration = 0; iteration < kNewtonIterations; ++iteration) {
    shape_functions_and_derivatives(type, xi, N, dN);
    double x[3] = {0, 0, 0}, J[3][3] = {};  // J[a][j] = dx_a/dxi_j
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < dim; ++a) {
        const double c = node_coords[static_cast<std::size_t>(3 * i + a)];
        x[a] += N[i] * c;
        for (int j = 0; j < dim; ++j) J[a][j] += dN[i * dim + j] * c;
      }
    double r[3], step[3];
    for (int a = 0; a < dim; ++a) r[a] = point[a] - x[a];
    if (!solve(dim, J, r, step)) return false;
    double moved = 0;
    for (int j = 0; j < dim; ++j) {
      xi[j] += step[j];
      moved = std::max(moved, std::abs(step[j]));
      if (!(std::abs(xi[j]) < kFarOutside)) return false;
    }
    if (moved < kNewtonStep) return inside_reference(info.shape, dim, xi);
  }
  return false;
}

}  // namespace fem

// The isoparametric map on randomly mapped and randomly distorted elements.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "tests/elements/element_fixtures.hpp"

using namespace fem;
using test::AffineMap;

namespace {

double det3(const double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}

double affine_det(const AffineMap& m, int dim) {
  return dim == 2 ? m.A[0][0] * m.A[1][1] - m.A[0][1] * m.A[1][0] : det3(m.A);
}

// Moves every node by a random offset of the given size (z stays 0 in 2D).
std::vector<double> perturbed(std::vector<double> xyz, int dim, double size, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-size, size);
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    for (int a = 0; a < dim; ++a) xyz[i + a] += u(rng);
  return xyz;
}

}  // namespace

TEST_CASE("isoparametric: an affinely mapped element has detJ = det A, x = A xi + b") {
  std::mt19937 rng(505);
  for (ElementType type : test::kVolumeTypes) {
    CAPTURE(element_info(type).name);
    const int dim = element_info(type).dimension;
    const AffineMap m = test::random_affine_map(rng, dim == 2);
    const auto xyz = m.apply_to_nodes(test::reference_coords_3d(type));
    const double det = affine_det(m, dim);
    double measure = 0;
    for (const auto& q : quadrature_rule(element_info(type).shape, stiffness_quadrature_degree(type)))
      measure += q.weight * map_volume_point(type, xyz, dim, q.xi.data()).detJ;
    CHECK(measure == doctest::Approx(det * reference_measure(element_info(type).shape)).epsilon(1e-13));
    for (int trial = 0; trial < 5; ++trial) {
      const auto xi = test::random_reference_point(type, rng);
      const VolumePoint p = map_volume_point(type, xyz, dim, xi.data());
      CHECK(p.detJ == doctest::Approx(det).epsilon(1e-13));
      const auto x = m.apply(xi.data());
      for (int a = 0; a < 3; ++a) CHECK(p.x[a] == doctest::Approx(x[a]).epsilon(1e-13));
    }
    CHECK(jacobian_ratio(type, xyz, dim) == doctest::Approx(1).epsilon(1e-12));
  }
}

TEST_CASE("isoparametric: dNdx reproduces the gradient of a linear field on distorted elements") {
  // Isoparametric elements interpolate linear fields exactly for any node positions.
  std::mt19937 rng(606);
  std::uniform_real_distribution<double> coef(-3, 3);
  for (ElementType type : test::kVolumeTypes) {
    CAPTURE(element_info(type).name);
    const int dim = element_info(type).dimension, n = element_info(type).num_nodes;
    const AffineMap m = test::random_affine_map(rng, dim == 2);
    const auto xyz = perturbed(m.apply_to_nodes(test::reference_coords_3d(type)), dim, 0.15, rng);
    const double g[3] = {coef(rng), coef(rng), dim == 3 ? coef(rng) : 0.0}, c = coef(rng);
    auto field = [&](const double* x) { return c + g[0] * x[0] + g[1] * x[1] + g[2] * x[2]; };
    for (int trial = 0; trial < 5; ++trial) {
      const auto xi = test::random_reference_point(type, rng);
      const VolumePoint p = map_volume_point(type, xyz, dim, xi.data());
      REQUIRE(p.detJ > 0);
      double value = 0, grad[3] = {0, 0, 0};
      for (int i = 0; i < n; ++i) {
        const double fi = field(&xyz[3 * i]);
        value += p.N[i] * fi;
        for (int a = 0; a < 3; ++a) grad[a] += p.dNdx[i * 3 + a] * fi;
      }
      CHECK(value == doctest::Approx(field(p.x)).epsilon(1e-12));
      for (int a = 0; a < 3; ++a) CHECK(grad[a] == doctest::Approx(g[a]).epsilon(1e-11));
      if (dim == 2)
        for (int i = 0; i < n; ++i) CHECK(p.dNdx[i * 3 + 2] == 0);
    }
  }
}

TEST_CASE("isoparametric: detJ of a distorted element matches finite differences of the map") {
  std::mt19937 rng(707);
  const double h = 1e-6;
  for (ElementType type : test::kVolumeTypes) {
    CAPTURE(element_info(type).name);
    const int dim = element_info(type).dimension;
    const AffineMap m = test::random_affine_map(rng, dim == 2);
    const auto xyz = perturbed(m.apply_to_nodes(test::reference_coords_3d(type)), dim, 0.15, rng);
    const auto xi = test::random_reference_point(type, rng);
    double J[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (int j = 0; j < dim; ++j) {
      auto plus = xi, minus = xi;
      plus[j] += h;
      minus[j] -= h;
      const VolumePoint pp = map_volume_point(type, xyz, dim, plus.data());
      const VolumePoint pm = map_volume_point(type, xyz, dim, minus.data());
      for (int a = 0; a < dim; ++a) J[a][j] = (pp.x[a] - pm.x[a]) / (2 * h);
    }
    if (dim == 2) J[2][2] = 1;
    CHECK(map_volume_point(type, xyz, dim, xi.data()).detJ == doctest::Approx(det3(J)).epsilon(1e-7));
  }
}

TEST_CASE("isoparametric: area of a distorted quad4 equals the shoelace formula") {
  const std::vector<double> xyz = {0.1, -0.2, 0, 2.3, 0.4, 0, 1.2, 1.1, 0, -0.4, 1.9, 0};
  double shoelace = 0;
  for (int i = 0; i < 4; ++i) {
    const int j = (i + 1) % 4;
    shoelace += 0.5 * (xyz[3 * i] * xyz[3 * j + 1] - xyz[3 * j] * xyz[3 * i + 1]);
  }
  double area = 0;
  for (const auto& q : quadrature_rule(ElementShape::Quadrilateral, stiffness_quadrature_degree(ElementType::Quad4)))
    area += q.weight * map_volume_point(ElementType::Quad4, xyz, 2, q.xi.data()).detJ;
  CHECK(area == doctest::Approx(shoelace).epsilon(1e-14));
  const double ratio = jacobian_ratio(ElementType::Quad4, xyz, 2);
  CHECK(ratio > 0);
  CHECK(ratio < 0.8);
}

TEST_CASE("isoparametric: inverted and degenerate elements give detJ <= 0 without throwing") {
  std::mt19937 rng(808);
  for (ElementType type : test::kVolumeTypes) {
    CAPTURE(element_info(type).name);
    const int dim = element_info(type).dimension;
    AffineMap mirror = test::random_affine_map(rng, dim == 2);
    for (int c = 0; c < 3; ++c) mirror.A[0][c] = -mirror.A[0][c];  // reflect x: det < 0
    const auto inverted = mirror.apply_to_nodes(test::reference_coords_3d(type));
    const auto xi = test::random_reference_point(type, rng);
    CHECK(map_volume_point(type, inverted, dim, xi.data()).detJ < 0);
    CHECK(jacobian_ratio(type, inverted, dim) < 0);

    auto flat = inverted;  // every node on the plane x = 0.5: no volume
    for (std::size_t i = 0; i < flat.size(); i += 3) flat[i] = 0.5;
    const VolumePoint p = map_volume_point(type, flat, dim, xi.data());
    CHECK(p.detJ == 0);
    for (int k = 0; k < 3 * element_info(type).num_nodes; ++k) CHECK(p.dNdx[k] == 0);
  }
  // A quad4 with one corner pushed across the opposite diagonal: inverted near that corner only.
  const std::vector<double> dart = {0, 0, 0, 2, 0, 0, 0.3, 0.3, 0, 0, 2, 0};
  CHECK(jacobian_ratio(ElementType::Quad4, dart, 2) < 0);
}

TEST_CASE("isoparametric: bad arguments throw with a message") {
  const auto xyz = test::reference_coords_3d(ElementType::Tri3);
  const double xi[3] = {0.2, 0.2, 0};
  CHECK_THROWS_AS(map_volume_point(ElementType::Tri3, xyz, 3, xi), std::invalid_argument);
  CHECK_THROWS_AS(map_volume_point(ElementType::Tri3, std::span(xyz).first(6), 2, xi), std::invalid_argument);
  CHECK_THROWS_AS(map_facet_point(ElementType::Tet4, test::reference_coords_3d(ElementType::Tet4), xi),
                  std::invalid_argument);
}

TEST_CASE("facets: measure integrates to the true length/area, normal from the node order") {
  std::mt19937 rng(909);
  for (ElementType type : test::kFacetTypes) {
    CAPTURE(element_info(type).name);
    const auto& info = element_info(type);
    const bool line = info.dimension == 1;
    const AffineMap m = test::random_affine_map(rng, line);  // lines live in the xy-plane
    const auto xyz = m.apply_to_nodes(test::reference_coords_3d(type));
    // Columns of A for the reference directions; the true measure is ref_measure * |a| or |a x b|.
    const double a[3] = {m.A[0][0], m.A[1][0], m.A[2][0]}, b[3] = {m.A[0][1], m.A[1][1], m.A[2][1]};
    double expected_normal[3];
    if (line) {
      expected_normal[0] = a[1];
      expected_normal[1] = -a[0];
      expected_normal[2] = 0;
    } else {
      expected_normal[0] = a[1] * b[2] - a[2] * b[1];
      expected_normal[1] = a[2] * b[0] - a[0] * b[2];
      expected_normal[2] = a[0] * b[1] - a[1] * b[0];
    }
    const double scale = std::hypot(expected_normal[0], expected_normal[1], expected_normal[2]);
    double measure = 0;
    for (const auto& q : quadrature_rule(info.shape, mass_quadrature_degree(type))) {
      const FacetPoint p = map_facet_point(type, xyz, q.xi.data());
      measure += q.weight * p.measure;
      for (int k = 0; k < 3; ++k) CHECK(p.normal[k] == doctest::Approx(expected_normal[k] / scale).epsilon(1e-12));
    }
    CHECK(measure == doctest::Approx(scale * reference_measure(info.shape)).epsilon(1e-13));
  }
}

TEST_CASE("facets: length of a curved line3 equals the parabola's arc length") {
  // Nodes (-1,0), (1,0), mid (0,h): y = h (1 - x^2); arc length sqrt(1+4h^2) + asinh(2h)/(2h).
  const double h = 0.4;
  const std::vector<double> xyz = {-1, 0, 0, 1, 0, 0, 0, h, 0};
  double length = 0;
  for (const auto& q : quadrature_rule(ElementShape::Line, kMaxQuadratureDegree))
    length += q.weight * map_facet_point(ElementType::Line3, xyz, q.xi.data()).measure;
  CHECK(length == doctest::Approx(std::sqrt(1 + 4 * h * h) + std::asinh(2 * h) / (2 * h)).epsilon(1e-9));
  // Seen along the line (node 0 to node 1, +x) the normal (t_y, -t_x) points to -y at the middle.
  const double centre = 0;
  const FacetPoint p = map_facet_point(ElementType::Line3, xyz, &centre);
  CHECK(p.normal[0] == doctest::Approx(0));
  CHECK(p.normal[1] == doctest::Approx(-1));
  CHECK(p.x[1] == doctest::Approx(h));
}

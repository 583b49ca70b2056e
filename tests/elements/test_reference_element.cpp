// Shape functions and facets of every element type, against their defining properties.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/reference_element.hpp"
#include "tests/elements/element_fixtures.hpp"

using namespace fem;
using fem::test::kCellTypes;
using fem::test::random_reference_point;

TEST_CASE("shape functions: partition of unity and zero derivative sum at random points") {
  std::mt19937 rng(101);
  for (ElementType type : kCellTypes) {
    CAPTURE(element_info(type).name);
    const int n = element_info(type).num_nodes, dim = element_info(type).dimension;
    for (int trial = 0; trial < 25; ++trial) {
      const auto xi = random_reference_point(type, rng);
      double N[kMaxElementNodes], dN[kMaxElementNodes * 3];
      shape_functions(type, xi.data(), N);
      shape_derivatives(type, xi.data(), dN);
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += N[i];
      CHECK(sum == doctest::Approx(1).epsilon(1e-13));
      for (int j = 0; j < dim; ++j) {
        double dsum = 0;
        for (int i = 0; i < n; ++i) dsum += dN[i * dim + j];
        CHECK(std::abs(dsum) < 1e-12);
      }
    }
  }
}

TEST_CASE("shape functions: Kronecker delta at the reference nodes") {
  for (ElementType type : kCellTypes) {
    CAPTURE(element_info(type).name);
    const int n = element_info(type).num_nodes, dim = element_info(type).dimension;
    const auto ref = reference_nodes(type);
    REQUIRE(ref.size() == std::size_t(n * dim));
    for (int j = 0; j < n; ++j) {
      double N[kMaxElementNodes];
      shape_functions(type, &ref[j * dim], N);
      for (int i = 0; i < n; ++i) {
        CAPTURE(i);
        CAPTURE(j);
        CHECK(std::abs(N[i] - (i == j ? 1.0 : 0.0)) < 1e-14);
      }
    }
  }
}

TEST_CASE("shape functions: derivatives match central finite differences") {
  std::mt19937 rng(202);
  const double h = 1e-6;
  for (ElementType type : kCellTypes) {
    CAPTURE(element_info(type).name);
    const int n = element_info(type).num_nodes, dim = element_info(type).dimension;
    for (int trial = 0; trial < 10; ++trial) {
      const auto xi = random_reference_point(type, rng);
      double dN[kMaxElementNodes * 3];
      shape_derivatives(type, xi.data(), dN);
      for (int j = 0; j < dim; ++j) {
        auto plus = xi, minus = xi;
        plus[j] += h;
        minus[j] -= h;
        double Np[kMaxElementNodes], Nm[kMaxElementNodes];
        shape_functions(type, plus.data(), Np);
        shape_functions(type, minus.data(), Nm);
        for (int i = 0; i < n; ++i) CHECK(dN[i * dim + j] == doctest::Approx((Np[i] - Nm[i]) / (2 * h)).epsilon(1e-7));
      }
    }
  }
}

TEST_CASE("shape functions: interpolate every polynomial of total degree <= order exactly") {
  // A random polynomial of the element's order, sampled at the nodes and interpolated, must come
  // back at a random point: catches a shape function tied to the wrong node.
  std::mt19937 rng(303);
  std::uniform_real_distribution<double> coef(-2, 2);
  for (ElementType type : kCellTypes) {
    CAPTURE(element_info(type).name);
    const auto& info = element_info(type);
    const int n = info.num_nodes, dim = info.dimension;
    double c[10];
    for (double& v : c) v = coef(rng);
    auto f = [&](const double* x) {
      double value = c[0];
      for (int d = 0; d < dim; ++d) value += c[1 + d] * x[d];
      if (info.order == 2)
        for (int a = 0, k = 4; a < dim; ++a)
          for (int b = a; b < dim; ++b) value += c[k++] * x[a] * x[b];
      return value;
    };
    const auto ref = reference_nodes(type);
    for (int trial = 0; trial < 10; ++trial) {
      const auto xi = random_reference_point(type, rng);
      double N[kMaxElementNodes];
      shape_functions(type, xi.data(), N);
      double interpolated = 0;
      for (int i = 0; i < n; ++i) interpolated += N[i] * f(&ref[i * dim]);
      CHECK(interpolated == doctest::Approx(f(xi.data())).epsilon(1e-12));
    }
  }
}

TEST_CASE("Lagrange and serendipity spaces differ where they should") {
  // quad9/hex27 reproduce xi^2 eta^2 (biquadratic), quad8/hex20 do not.
  const double xi[3] = {0.3, -0.7, 0.2};
  for (ElementType type : {ElementType::Quad8, ElementType::Quad9, ElementType::Hex20, ElementType::Hex27}) {
    CAPTURE(element_info(type).name);
    const int n = element_info(type).num_nodes, dim = element_info(type).dimension;
    const auto ref = reference_nodes(type);
    double N[kMaxElementNodes];
    shape_functions(type, xi, N);
    double interpolated = 0;
    for (int i = 0; i < n; ++i) interpolated += N[i] * ref[i * dim] * ref[i * dim] * ref[i * dim + 1] * ref[i * dim + 1];
    const double exact = xi[0] * xi[0] * xi[1] * xi[1];
    const bool lagrange = type == ElementType::Quad9 || type == ElementType::Hex27;
    CHECK((std::abs(interpolated - exact) < 1e-13) == lagrange);
  }
}

namespace {

// Whether all the points (dim coordinates each) lie on one boundary piece of the reference domain.
bool on_one_reference_facet(ElementShape shape, int dim, const std::vector<const double*>& points) {
  auto all = [&](auto pred) {
    for (const double* p : points)
      if (!pred(p)) return false;
    return true;
  };
  for (int d = 0; d < dim; ++d) {
    if (test::is_simplex(shape)) {
      if (all([&](const double* p) { return std::abs(p[d]) < 1e-15; })) return true;
    } else {
      for (double side : {-1.0, 1.0})
        if (all([&](const double* p) { return p[d] == side; })) return true;
    }
  }
  if (test::is_simplex(shape))
    return all([&](const double* p) {
      double sum = 0;
      for (int d = 0; d < dim; ++d) sum += p[d];
      return std::abs(sum - 1) < 1e-15;
    });
  return false;
}

}  // namespace

TEST_CASE("facets: nodes lie on one reference facet and sit where the facet element puts them") {
  for (ElementType type : kCellTypes) {
    CAPTURE(element_info(type).name);
    const auto& info = element_info(type);
    const ElementType ftype = facet_type_of(type);
    const auto& finfo = element_info(ftype);
    const auto ref = reference_nodes(type);
    const int dim = info.dimension;
    std::set<std::set<int>> distinct;
    for (int f = 0; f < num_facets(type); ++f) {
      CAPTURE(f);
      const auto nodes = facet_nodes(type, f);
      REQUIRE(int(nodes.size()) == finfo.num_nodes);
      std::vector<const double*> points;
      for (int k : nodes) points.push_back(&ref[k * dim]);
      CHECK(on_one_reference_facet(info.shape, dim, points));
      distinct.insert(std::set<int>(nodes.begin(), nodes.end()));
      if (finfo.dimension == 0) continue;
      // Each facet node must be where the facet's linear (vertex) map puts its reference node:
      // edge nodes at edge midpoints, the quad9 face node at the face centre.
      const ElementType linear = element_type_for(finfo.shape, 1);
      const auto fref = reference_nodes(ftype);
      for (int k = 0; k < finfo.num_nodes; ++k) {
        double Nl[kMaxElementNodes];
        shape_functions(linear, &fref[k * finfo.dimension], Nl);
        for (int d = 0; d < dim; ++d) {
          double x = 0;
          for (int v = 0; v < finfo.num_vertices; ++v) x += Nl[v] * ref[nodes[v] * dim + d];
          CHECK(x == doctest::Approx(ref[nodes[k] * dim + d]));
        }
      }
    }
    CHECK(int(distinct.size()) == num_facets(type));
  }
  CHECK_THROWS_AS(facet_nodes(ElementType::Hex8, 6), std::out_of_range);
  CHECK_THROWS_AS(facet_nodes(ElementType::Tri3, -1), std::out_of_range);
  CHECK_THROWS_AS(num_facets(ElementType::Point1), std::invalid_argument);
}

TEST_CASE("facets: the node order gives an outward normal on the reference element") {
  for (ElementType type : test::kVolumeTypes) {
    CAPTURE(element_info(type).name);
    const auto& info = element_info(type);
    const ElementType ftype = facet_type_of(type);
    const auto xyz = test::reference_coords_3d(type);
    // Centroid of the vertices: inside the cell.
    double centre[3] = {0, 0, 0};
    for (int v = 0; v < info.num_vertices; ++v)
      for (int a = 0; a < 3; ++a) centre[a] += xyz[3 * v + a] / info.num_vertices;
    for (int f = 0; f < num_facets(type); ++f) {
      CAPTURE(f);
      const auto nodes = facet_nodes(type, f);
      std::vector<double> fxyz;
      for (int k : nodes) fxyz.insert(fxyz.end(), &xyz[3 * k], &xyz[3 * k + 3]);
      const double fxi[2] = {element_info(ftype).shape == ElementShape::Triangle ? 1.0 / 3 : 0.0,
                             element_info(ftype).shape == ElementShape::Triangle ? 1.0 / 3 : 0.0};
      const FacetPoint p = map_facet_point(ftype, fxyz, fxi);
      CHECK(p.measure > 0);
      double outward = 0;
      for (int a = 0; a < 3; ++a) outward += p.normal[a] * (p.x[a] - centre[a]);
      CHECK(outward > 0);
      // The reference facets are flat: the normal is orthogonal to every in-facet direction.
      for (std::size_t k = 1; k < nodes.size(); ++k) {
        double along = 0;
        for (int a = 0; a < 3; ++a) along += p.normal[a] * (fxyz[3 * k + a] - fxyz[a]);
        CHECK(std::abs(along) < 1e-14);
      }
    }
  }
}

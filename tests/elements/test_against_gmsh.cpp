// Reference nodes and shape functions against the Gmsh SDK's own definitions
// (getElementProperties, getBasisFunctions): the strongest check that a .msh maps straight in.
#include <doctest/doctest.h>

#include <gmsh.h>

#include <cmath>
#include <string>
#include <vector>

#include "fem/elements/reference_element.hpp"
#include "tests/elements/element_fixtures.hpp"

using namespace fem;

namespace {

struct GmshSession {
  GmshSession() {
    gmsh::initialize();
    gmsh::option::setNumber("General.Terminal", 0);
  }
  ~GmshSession() { gmsh::finalize(); }
};

}  // namespace

TEST_CASE("Gmsh SDK: same reference nodes, shape functions and gradients for every type") {
  GmshSession session;
  std::mt19937 rng(1111);
  for (ElementType type : test::kCellTypes) {
    const auto& info = element_info(type);
    CAPTURE(info.name);
    const int n = info.num_nodes, dim = info.dimension;

    std::string name;
    int gdim = 0, order = 0, num_nodes = 0, num_primary = 0;
    std::vector<double> gmsh_nodes;
    gmsh::model::mesh::getElementProperties(info.gmsh_type, name, gdim, order, num_nodes, gmsh_nodes, num_primary);
    REQUIRE(gdim == dim);
    REQUIRE(num_nodes == n);
    CHECK(order == info.order);
    CHECK(num_primary == info.num_vertices);
    const auto ref = reference_nodes(type);
    for (int k = 0; k < n * dim; ++k) CHECK(ref[k] == doctest::Approx(gmsh_nodes[k]).epsilon(1e-15));

    std::vector<double> points;  // 3 coordinates per point, as Gmsh takes them
    for (int k = 0; k < 6; ++k) {
      const auto xi = test::random_reference_point(type, rng);
      points.insert(points.end(), xi.begin(), xi.end());
    }
    int components = 0, orientations = 0;
    std::vector<double> values, gradients;
    gmsh::model::mesh::getBasisFunctions(info.gmsh_type, points, "Lagrange", components, values, orientations);
    gmsh::model::mesh::getBasisFunctions(info.gmsh_type, points, "GradLagrange", components, gradients, orientations);
    for (int k = 0; k < 6; ++k) {
      double N[kMaxElementNodes], dN[kMaxElementNodes * 3];
      shape_functions_and_derivatives(type, &points[3 * k], N, dN);
      for (int i = 0; i < n; ++i) {
        CHECK(std::abs(N[i] - values[k * n + i]) < 1e-14);
        for (int d = 0; d < dim; ++d) CHECK(std::abs(dN[i * dim + d] - gradients[(k * n + i) * 3 + d]) < 1e-13);
      }
    }
  }
}

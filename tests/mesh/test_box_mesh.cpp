// The built-in box against what a structured box must be, for every element type in 2D and 3D on
// uneven divisions: each cell straight-sided (Jacobian ratio 1, so its nodes are in their places
// and order) and inside the cell of the grid its index names (the cells' order: axis 0 fastest,
// a cell's simplices together), the cells filling the box's volume, every node used, and each face
// group's facets on its face, covering its area.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/mesh/box_mesh.hpp"

using namespace fem;

namespace {

std::vector<double> coords_of(const Mesh& mesh, std::span<const int> nodes) {
  std::vector<double> xyz;
  for (int n : nodes) xyz.insert(xyz.end(), &mesh.coords[3 * n], &mesh.coords[3 * n] + 3);
  return xyz;
}

double cell_measure(ElementType type, const std::vector<double>& xyz, int dim) {
  double measure = 0;
  for (const auto& q : quadrature_rule(element_info(type).shape, 2))
    measure += q.weight * map_volume_point(type, xyz, dim, q.xi.data()).detJ;
  return measure;
}

double facet_measure(ElementType type, const std::vector<double>& xyz) {
  double measure = 0;
  for (const auto& q : quadrature_rule(element_info(type).shape, 2)) measure += q.weight * map_facet_point(type, xyz, q.xi.data()).measure;
  return measure;
}

void check_box(const BoxSpec& spec) {
  const Mesh mesh = make_box_mesh(spec);
  const int dim = static_cast<int>(spec.size.size());
  const auto& origin = spec.origin;
  const int simplices = spec.shape == ElementShape::Triangle ? 2 : spec.shape == ElementShape::Tetrahedron ? 6 : 1;
  long cells = 1;
  double volume = 1;
  for (int k = 0; k < dim; ++k) cells *= spec.divisions[k], volume *= spec.size[k];
  REQUIRE(mesh.cells.size() == static_cast<std::size_t>(cells * simplices));

  std::vector<int> used(mesh.num_nodes(), 0);
  double total = 0;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const ElementType type = mesh.cells.type[e];
    const auto nodes = mesh.cells.nodes_of(e);
    const auto xyz = coords_of(mesh, nodes);
    CHECK(jacobian_ratio(type, xyz, dim) == doctest::Approx(1.0).epsilon(1e-12));
    total += cell_measure(type, xyz, dim);
    // The cell of the grid element e belongs to: its centroid lies strictly inside it.
    long cell = static_cast<long>(e) / simplices;
    for (int k = 0; k < dim; ++k) {
      double centroid = 0;
      for (std::size_t a = 0; a < nodes.size(); ++a) centroid += xyz[3 * a + k] / static_cast<double>(nodes.size());
      const double h = spec.size[k] / spec.divisions[k];
      const long index = cell % spec.divisions[k];
      cell /= spec.divisions[k];
      CHECK(centroid > origin[k] + index * h);
      CHECK(centroid < origin[k] + (index + 1) * h);
    }
    for (int n : nodes) used[n] = 1;
  }
  CHECK(total == doctest::Approx(volume).epsilon(1e-12));
  for (int u : used) CHECK(u == 1);

  const char* axis_names[] = {"x", "y", "z"};
  for (int axis = 0; axis < dim; ++axis)
    for (int side = 0; side < 2; ++side) {
      const std::string name = std::string(axis_names[axis]) + (side == 0 ? "min" : "max");
      CAPTURE(name);
      const PhysicalGroup* group = mesh.find_group(name);
      REQUIRE(group != nullptr);
      const double plane = origin[axis] + side * spec.size[axis];
      double area = 0;
      for (std::size_t f : group->elements) {
        const auto xyz = coords_of(mesh, mesh.boundary.nodes_of(f));
        for (std::size_t a = 0; a < xyz.size() / 3; ++a) CHECK(xyz[3 * a + axis] == doctest::Approx(plane));
        area += facet_measure(mesh.boundary.type[f], xyz);
      }
      CHECK(area == doctest::Approx(volume / spec.size[axis]).epsilon(1e-12));
    }
}

}  // namespace

TEST_CASE("the built-in box: straight cells in grid order filling the box, every node used, faces covered") {
  // A 2D and a 3D box; serendipity only for quadratic quadrilaterals and hexahedra.
  const ElementShape shapes[] = {ElementShape::Triangle, ElementShape::Quadrilateral, ElementShape::Tetrahedron,
                                 ElementShape::Hexahedron};
  for (int order : {1, 2})
    for (bool serendipity : {false, true})
      for (ElementShape shape : shapes) {
        const bool simplex = shape == ElementShape::Triangle || shape == ElementShape::Tetrahedron;
        if (serendipity && (order == 1 || simplex)) continue;
        const int shape_number = static_cast<int>(shape);
        CAPTURE(order);
        CAPTURE(serendipity);
        CAPTURE(shape_number);
        if (shape == ElementShape::Triangle || shape == ElementShape::Quadrilateral)
          check_box({{2.0, 0.5}, {5, 3}, shape, order, serendipity, {-1.0, 0.25}});
        else
          check_box({{1.5, 0.5, 2.0}, {3, 2, 4}, shape, order, serendipity, {0.5, -2.0, 1.0}});
      }
}

#include "fem/mesh/geo_mesh_estimate.hpp"

#include <gmsh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

namespace fem {
namespace {

using Point = std::array<double, 3>;

Point minus(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const Point& a) { return std::sqrt(dot(a, a)); }

// What the boundary mesh of one cell entity adds up to: the area or volume it encloses (signed,
// by the divergence theorem over its oriented elements) and, over the boundary entities not
// seen before, their length or area and their elements in units of a size-1 element.
struct BoundaryTotals {
  double enclosed = 0;
  double extent = 0;
  double unit_elements = 0;
};

class NodeCoordinates {
 public:
  NodeCoordinates() {
    std::vector<std::size_t> tags;
    std::vector<double> xyz, parametric;
    gmsh::model::mesh::getNodes(tags, xyz, parametric, -1, -1, false, false);
    std::size_t max_tag = 0;
    for (std::size_t t : tags) max_tag = std::max(max_tag, t);
    xyz_.assign(3 * (max_tag + 1), 0.0);
    for (std::size_t i = 0; i < tags.size(); ++i)
      for (int k = 0; k < 3; ++k) xyz_[3 * tags[i] + k] = xyz[3 * i + k];
  }
  Point operator()(std::size_t tag) const { return {xyz_[3 * tag], xyz_[3 * tag + 1], xyz_[3 * tag + 2]}; }

 private:
  std::vector<double> xyz_;
};

// Adds boundary entity (dim, tag)'s elements, `sign` -1 where its orientation is reversed
// against the cell entity's.
void add_boundary_entity(const NodeCoordinates& at, int dim, int tag, double sign, bool first_time, BoundaryTotals& totals) {
  std::vector<int> types;
  std::vector<std::vector<std::size_t>> element_tags, element_nodes;
  gmsh::model::mesh::getElements(types, element_tags, element_nodes, dim, tag);
  for (std::size_t block = 0; block < types.size(); ++block) {
    std::string name;
    int type_dim = 0, order = 0, num_nodes = 0, num_primary = 0;
    std::vector<double> local;
    gmsh::model::mesh::getElementProperties(types[block], name, type_dim, order, num_nodes, local, num_primary);
    const auto& nodes = element_nodes[block];
    for (std::size_t first = 0; first + num_nodes <= nodes.size(); first += num_nodes) {
      const auto p = [&](int k) { return at(nodes[first + k]); };
      if (dim == 1 && num_primary == 2) {
        const Point a = p(0), b = p(1);
        totals.enclosed += sign * 0.5 * (a[0] * b[1] - b[0] * a[1]);  // the shoelace formula, in the xy-plane
        if (first_time) {
          totals.extent += norm(minus(b, a));
          totals.unit_elements += 1;
        }
      } else if (dim == 2 && (num_primary == 3 || num_primary == 4)) {
        // A quadrilateral as the two triangles (0, 1, 2) and (0, 2, 3).
        for (int t = 0; t + 2 < num_primary; ++t) {
          const Point a = p(0), b = p(t + 1), c = p(t + 2);
          totals.enclosed += sign * dot(a, cross(b, c)) / 6;
          if (first_time) totals.extent += 0.5 * norm(cross(minus(b, a), minus(c, a)));
        }
        if (first_time) totals.unit_elements += num_primary == 3 ? kEquilateralTriangleArea : 1.0;
      }
    }
  }
}

}  // namespace

GeoMeshEstimate estimate_from_bounding_box(int dimension, ElementShape shape, double size, double& boundary_elements) {
  double x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0;
  gmsh::model::getBoundingBox(-1, -1, x0, y0, z0, x1, y1, z1);
  const double dx = x1 - x0, dy = y1 - y0, dz = z1 - z0;
  GeoMeshEstimate e;
  e.dimension = dimension;
  e.shape = shape;
  e.element_size = size;
  e.from_bounding_box = true;
  e.measure = dimension == 2 ? dx * dy : dx * dy * dz;
  boundary_elements = dimension == 2 ? 2 * (dx + dy) / size : 2 * (dx * dy + dy * dz + dz * dx) / (kEquilateralTriangleArea * size * size);
  e.cells = cells_of_size(dimension, shape, e.measure, size);
  return e;
}

GeoMeshEstimate estimate_geo_cells(int dimension, ElementShape shape) {
  gmsh::model::mesh::generate(dimension - 1);
  const NodeCoordinates at;
  GeoMeshEstimate e;
  e.dimension = dimension;
  e.shape = shape;
  double extent = 0, unit_elements = 0;
  std::set<int> seen;
  gmsh::vectorpair cells;
  gmsh::model::getEntities(cells, dimension);
  for (const auto& cell : cells) {
    gmsh::vectorpair boundary;
    gmsh::model::getBoundary({cell}, boundary, /*combined=*/false, /*oriented=*/true, /*recursive=*/false);
    BoundaryTotals totals;
    for (const auto& [dim, tag] : boundary) {
      const bool first_time = seen.insert(std::abs(tag)).second;
      add_boundary_entity(at, dim, std::abs(tag), tag < 0 ? -1.0 : 1.0, first_time, totals);
    }
    e.measure += std::abs(totals.enclosed);  // whichever way the boundary turns
    extent += totals.extent;
    unit_elements += totals.unit_elements;
  }
  if (unit_elements > 0) e.element_size = dimension == 2 ? extent / unit_elements : std::sqrt(extent / unit_elements);
  e.cells = cells_of_size(dimension, shape, e.measure, e.element_size);
  return e;
}

}  // namespace fem

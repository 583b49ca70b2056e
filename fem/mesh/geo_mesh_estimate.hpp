#pragma once
// How many cells Gmsh is about to make of a .geo, known before it makes them: the mesh of the
// geometry's boundary (curves in 2D, surfaces in 3D) is cheap next to the cells, and it gives
// both the area or volume it encloses and the element size Gmsh uses. A case with a tiny
// `mesh.size` can then be refused in seconds instead of after minutes of meshing and gigabytes.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fem/elements/element_type.hpp"

namespace fem {

struct GeoMeshEstimate {
  int dimension = 0;
  ElementShape shape = ElementShape::Triangle;
  double measure = 0;       // area (2D) or volume (3D) inside the boundary mesh
  double element_size = 0;  // the boundary elements' size, their count spread over the boundary's length or area
  std::int64_t cells = 0;   // measure over the volume of a cell of that size
  bool from_bounding_box = false;  // the rough estimate below, not the boundary mesh's
};

// Cells of `shape` of that size in `measure`: equilateral triangles, squares or cubes of side
// `element_size`, tetrahedra of Gmsh's mean volume at that size. Within a factor of about 1.3 of
// the meshes in tests/mesh/test_gmsh_mesh.cpp, except hexahedra by subdivision (the .geo does not
// make its volumes transfinite), which come out up to 8 times more: the estimate is the lower one.
// (Gmsh's tetrahedra: 0.2 a cube of the boundary elements' size, measured; a regular
// tetrahedron's is 0.118, Gmsh's are larger inside than at the boundary.)
inline constexpr double kEquilateralTriangleArea = 0.4330127018922193;  // side 1
inline constexpr double kGmshTetrahedronVolume = 0.2;
inline std::int64_t cells_of_size(int dimension, ElementShape shape, double measure, double element_size) {
  if (!(measure > 0) || !(element_size > 0)) return 0;
  const double cell = dimension == 2 ? (shape == ElementShape::Quadrilateral ? 1.0 : kEquilateralTriangleArea) * element_size * element_size
                                     : (shape == ElementShape::Hexahedron ? 1.0 : kGmshTetrahedronVolume) * std::pow(element_size, 3);
  return static_cast<std::int64_t>(std::min(9e18, std::ceil(measure / cell)));
}

// The elements of the boundary mesh itself would be too many to make for an estimate beyond
// this: a rough estimate comes first (a tiny mesh.size would take minutes and gigabytes before
// the boundary mesh was done).
inline constexpr double kBoundaryElementsForEstimate = 5e6;

// From the model's bounding box and the element size cap `size` (> 0): its area or volume over
// the cells of that size, and in `boundary_elements` the elements of the box's own boundary at
// that size, which the real boundary's roughly follow. Only in builds with Gmsh.
GeoMeshEstimate estimate_from_bounding_box(int dimension, ElementShape shape, double size, double& boundary_elements);

// Meshes the boundary of the model open in the current Gmsh session (dimension - 1) and
// estimates the cells from it. The boundary mesh stays: meshing the cells continues from it.
// Only in builds with Gmsh.
GeoMeshEstimate estimate_geo_cells(int dimension, ElementShape shape);

}  // namespace fem

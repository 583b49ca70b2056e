#pragma once
// The built-in structured box: the quickest mesh to make and the one the GPU machine
// (which has no Gmsh) uses. It spans from `origin` (default 0) to origin + `size`.
#include <vector>

#include "fem/mesh/mesh.hpp"

namespace fem {

struct BoxSpec {
  std::vector<double> size;      // 2 or 3 extents; the dimension of the box
  std::vector<int> divisions;    // cells per axis, same length as size
  ElementShape shape = ElementShape::Hexahedron;  // Quadrilateral/Triangle in 2D, Hexahedron/Tetrahedron in 3D
  int order = 1;
  bool serendipity = false;      // quad8/hex20 instead of quad9/hex27 for order 2
  std::vector<double> origin{};  // its lowest corner (same length as size); empty: the origin
};

// Groups: the region "box" and its faces (edges in 2D) "xmin" "xmax" "ymin" "ymax" "zmin" "zmax".
// Simplices split each cell along the diagonal from its lowest to its highest corner (Kuhn),
// which keeps the triangulation of the faces conforming between neighbouring cells.
Mesh make_box_mesh(const BoxSpec& spec);

}  // namespace fem

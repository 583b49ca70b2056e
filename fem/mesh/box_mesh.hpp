#pragma once
// The built-in structured box: the quickest mesh to make and the one the GPU machine
// (which has no Gmsh) uses. It spans from `origin` (default 0) to origin + `size`.
#include <array>
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

// Throws std::invalid_argument naming what is wrong with the spec.
void validate_box_spec(const BoxSpec& spec);

// Groups: the region "box" and its faces (edges in 2D) "xmin" "xmax" "ymin" "ymax" "zmin" "zmax".
// Simplices split each cell along the diagonal from its lowest to its highest corner (Kuhn),
// which keeps the triangulation of the faces conforming between neighbouring cells.
Mesh make_box_mesh(const BoxSpec& spec);

// A block of the box's cells, [first, end) along each axis (unused axes: [0, 1)).
struct BoxBlock {
  std::array<int, 3> first{0, 0, 0};
  std::array<int, 3> end{1, 1, 1};
};

// The box's points: `order` lattice steps per cell edge along each axis, so that every node of
// every element sits on one.
using LatticePoint = std::array<long, 3>;

struct BoxBlockMesh {
  Mesh mesh;
  std::vector<LatticePoint> lattice_point;  // per node of `mesh`: its point in the whole box
};

// The cells of `block` alone, as make_box_mesh makes the whole box (the same cell order within the
// block, the same coordinates to the last bit), with the box's groups (a face the block does not
// reach: empty) and the nodes numbered within the block. The whole box's block gives make_box_mesh
// (which needs no lattice points: `lattice_points` false leaves them out).
BoxBlockMesh make_box_block(const BoxSpec& spec, const BoxBlock& block, bool lattice_points = true);

}  // namespace fem

#pragma once
// Cells and nodes that occupy the same space without the mesh joining them, which the checks of
// shared faces cannot see: overlapping cells that share no face, and the two sides of a crack
// whose nodes were not merged. One bounding-volume hierarchy of the cells' boxes serves both,
// so the cost is O(n log n) in the cells.
#include "fem/mesh/mesh.hpp"

namespace fem {

// Two nodes no element joins are taken for one place split in two when they are closer than
// this fraction of the smallest distance between two corners of a cell that holds one of them:
// the nodes of a valid mesh that share no element are an element's height apart.
inline constexpr double kUnmergedNodeFraction = 1e-3;

// Throws std::runtime_error naming mesh.source and both elements (tag, type, groups) when the
// centre of a cell, or a node, lies strictly inside a cell that does not own it; and, unless
// allow_unmerged_nodes, naming both nodes by their coordinates and elements when two nodes lie
// within kUnmergedNodeFraction of the local element size of each other and no element holds both.
void check_overlaps(const Mesh& mesh, bool allow_unmerged_nodes);

}  // namespace fem

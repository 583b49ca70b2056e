#pragma once
// The checks a mesh read from a file must pass before anything is computed on it, so that a
// bad element is named by its tag in the file and its group rather than by a wrong answer or
// a "not positive definite" system later.
#include "fem/mesh/mesh.hpp"

namespace fem {

// Throws std::runtime_error naming mesh.source, the element's file tag, its type and physical
// group for: a non-finite node coordinate, or one beyond 1e100; a cell whose Jacobian vanishes or changes sign
// inside it (in 3D: is not positive anywhere); a 2D cell folded over a neighbour (the two lie
// on the same side of the edge they share: a node moved across it), whichever way the mesh is
// wound; cells that do not conform: a face (2D: edge) of three cells, two cells that share a
// face's corners but not its midside nodes (a quadratic cell beside a linear one), or
// neighbours 100 times apart in size (an element pointing at a far node); cells and nodes that
// occupy the same space without sharing a face (overlap_check.hpp): two parts meshed into each
// other, a cell repeated with nodes of its own and, unless options.allow_unmerged_nodes, two
// nodes at (nearly) one place that no element joins (a crack); a boundary element of a group
// that is not part of any cell (a 2D part beside a 3D one, say), which would leave its nodes
// without stiffness.
struct MeshCheckOptions {
  bool allow_unmerged_nodes = false;  // parts meant to touch without being joined
};
void check_mesh(const Mesh& mesh, const MeshCheckOptions& options);

}  // namespace fem

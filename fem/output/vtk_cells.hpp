#pragma once
// Gmsh and VTK order the nodes of some quadratic cells differently; this is the one map.
#include <span>

#include "fem/elements/element_type.hpp"

namespace fem {

int vtk_cell_type(ElementType type);
// vtk_node[i] = gmsh_node[vtk_from_gmsh(type)[i]]
std::span<const int> vtk_from_gmsh(ElementType type);

}  // namespace fem

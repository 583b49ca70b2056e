#pragma once
// The mesh stage: the mesh a case describes, from a Gmsh .geo or .msh or the built-in box.
#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"

namespace fem {

// A .geo is meshed only after the estimate of its cells is checked against the host's memory.
Mesh make_mesh(const MeshSpec& spec);

}  // namespace fem

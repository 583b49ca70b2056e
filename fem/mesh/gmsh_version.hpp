#pragma once
// The Gmsh SDK this build meshes .geo and reads .msh files with, for the environment a study records.
#include <optional>
#include <string>

namespace fem {

// Gmsh's API version ("4.11.1"); none in a build without Gmsh (FEM_WITH_GMSH=OFF).
std::optional<std::string> gmsh_version();

}  // namespace fem

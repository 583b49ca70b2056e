// gmsh_version in a build without Gmsh.
#include "fem/mesh/gmsh_version.hpp"

namespace fem {

std::optional<std::string> gmsh_version() { return std::nullopt; }

}  // namespace fem

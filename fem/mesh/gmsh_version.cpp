#include "fem/mesh/gmsh_version.hpp"

#include <gmsh.h>

namespace fem {

std::optional<std::string> gmsh_version() { return GMSH_API_VERSION; }

}  // namespace fem

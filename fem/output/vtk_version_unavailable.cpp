// vtk_version in a build without VTK.
#include "fem/output/vtk_version.hpp"

namespace fem {

std::optional<std::string> vtk_version() { return std::nullopt; }

}  // namespace fem

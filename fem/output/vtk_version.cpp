#include "fem/output/vtk_version.hpp"

#include <vtkVersionMacros.h>

namespace fem {

std::optional<std::string> vtk_version() { return VTK_VERSION; }

}  // namespace fem

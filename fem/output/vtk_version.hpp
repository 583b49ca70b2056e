#pragma once
// The VTK this build writes its .vtu files with, for the environment a study records.
#include <optional>
#include <string>

namespace fem {

// VTK's version ("9.1.0"); none in a build without VTK (FEM_WITH_VTK=OFF).
std::optional<std::string> vtk_version();

}  // namespace fem

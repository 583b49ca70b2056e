#pragma once
// Meshing through Gmsh, loaded when first asked for. Gmsh brings about 90 shared objects
// (OpenCASCADE's among them) whose symbol binding would slow every start of fem, most of which
// mesh a box: fem/mesh/CMakeLists.txt builds the Gmsh side as a library of its own
// (libfem_gmsh), and this loads it.
#include <filesystem>

#include "fem/mesh/gmsh_mesh.hpp"

namespace fem {

// What libfem_gmsh offers: gmsh_mesh.hpp's two readers.
struct GmshEntryPoints {
  Mesh (*mesh_from_geo)(const std::filesystem::path& geo, const GmshMeshOptions& options);
  Mesh (*mesh_from_msh)(const std::filesystem::path& msh, const MeshCheckOptions& checks);
};

// The name libfem_gmsh exports its entry points under (gmsh_entry_points.cpp).
inline constexpr const char* kGmshEntryPointsSymbol = "fem_gmsh_entry_points";

// Loads libfem_gmsh once (from where the build put it) and returns its entry points. Throws
// std::runtime_error naming the library and the loader's reason when it cannot.
const GmshEntryPoints& gmsh_library();

}  // namespace fem

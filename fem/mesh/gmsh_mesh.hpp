#pragma once
// Meshes from Gmsh: generate one from a .geo through the Gmsh SDK, or read an existing .msh.
// Only built when FEM_WITH_GMSH. Both run a whole Gmsh session (initialize .. finalize) per
// call, so they must not be called while the program has a Gmsh session of its own open,
// nor from two threads at once (Gmsh is a global).
#include <filesystem>
#include <functional>
#include <optional>

#include "fem/elements/element_type.hpp"
#include "fem/mesh/geo_mesh_estimate.hpp"
#include "fem/mesh/mesh.hpp"
#include "fem/mesh/mesh_check.hpp"

namespace fem {

struct GmshMeshOptions {
  // Triangle or Quadrilateral for a 2D geometry, Tetrahedron or Hexahedron for a 3D one.
  // Quadrilaterals come from Blossom recombination; hexahedra from volumes the .geo makes
  // transfinite and recombined. Where that leaves other shapes, the geometry is meshed again at
  // twice the size and every element subdivided into quadrilaterals (hexahedra).
  // Unset: triangles or tetrahedra, by the geometry's dimension.
  std::optional<ElementShape> shape;
  int order = 1;             // 1 or 2
  bool serendipity = false;  // order 2 quadrilaterals/hexahedra: quad8/hex20 instead of quad9/hex27
  // Target element size; 0 keeps the sizes the .geo sets. When > 0 it caps every element size
  // (Mesh.MeshSizeMax) and reaches the .geo as its parameter `size`: the .geo files in meshes/
  // declare `DefineConstant[ size = {<default>, Name "Parameters/size"} ];` and derive every
  // local size from it, so a smaller size refines them everywhere, graded regions included.
  double size = 0;
  bool verbose = false;  // Gmsh's own progress messages on the terminal
  // A .geo is meshed in a child process (child_meshing.hpp) stopped past `time_limit` seconds
  // (0: kMeshingSeconds, and kMeshingSecondsPerCell for each cell estimated once the boundary is
  // meshed) or past `memory_limit` bytes (0: the memory available on the host).
  double time_limit = 0;
  std::size_t memory_limit = 0;
  // Called with the estimated number of cells once the boundary is meshed, in this process while
  // the meshing process goes on (geo_mesh_estimate.hpp): a caller refuses a mesh that would not
  // fit by throwing, which stops the meshing.
  std::function<void(const GeoMeshEstimate&)> check_estimate;
  MeshCheckOptions checks;  // what the mesh checks let pass (mesh_check.hpp)
};

// The time budget of a .geo without a time limit of its own: reading it and meshing its
// boundary, then a rate of cells (quadratic ones and their copy included) an order of magnitude
// below what Gmsh makes on a loaded machine, so that only a mesh far beyond its estimate runs out.
inline constexpr double kMeshingSeconds = 120;
inline constexpr double kMeshingSecondsPerCell = 1e-3;

// Meshes a .geo file. Throws std::runtime_error, with a message naming the file, when it does
// not exist, Gmsh cannot parse or mesh it, the options do not fit it (a quad for a 3D
// geometry, order 3), the mesh holds element types fem does not support, or meshing passed its
// time or memory budget or crashed.
Mesh mesh_from_geo(const std::filesystem::path& geo, const GmshMeshOptions& options);

// Reads a mesh file Gmsh can read (.msh of any version). Throws std::runtime_error like
// mesh_from_geo.
Mesh mesh_from_msh(const std::filesystem::path& msh, const MeshCheckOptions& checks = {});

// Both check the mesh (mesh_check.hpp) and return: `dimension` = the highest dimension that has elements; `cells` = all elements
// of that dimension, whether or not in a physical group; `boundary` = the lower-dimensional
// elements that belong to some physical group (once each, even if in several groups);
// `groups` = one per Gmsh physical group, named as in Gmsh ("group<tag>" when unnamed), its
// elements indexing `cells` or `boundary` by its dimension; nodes = only those used by
// elements, numbered 0.. in increasing Gmsh node tag; node order within elements as in Gmsh.

}  // namespace fem

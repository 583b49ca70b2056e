// libfem_gmsh's one exported name: the readers of gmsh_mesh.hpp, for gmsh_library() to call.
#include "fem/mesh/gmsh_library.hpp"

extern "C" __attribute__((visibility("default"))) const fem::GmshEntryPoints* fem_gmsh_entry_points() {
  static const fem::GmshEntryPoints points{&fem::mesh_from_geo, &fem::mesh_from_msh};
  return &points;
}

#include "fem/pipeline/make_mesh.hpp"

#include "fem/config.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/resources/case_fit.hpp"
#include "support/host_memory.hpp"
#if FEM_WITH_GMSH
#include "fem/mesh/gmsh_library.hpp"
#endif

namespace fem {

Mesh make_mesh(const MeshSpec& spec) {
  if (spec.source == MeshSpec::Source::Box) return make_box_mesh(spec.box);
#if FEM_WITH_GMSH
  const MeshCheckOptions checks{.allow_unmerged_nodes = spec.allow_unmerged_nodes};
  if (spec.source == MeshSpec::Source::Msh) return gmsh_library().mesh_from_msh(spec.file, checks);
  GmshMeshOptions options;
  options.shape = spec.shape;
  options.order = spec.order;
  options.serendipity = spec.serendipity;
  options.size = spec.size;
  options.time_limit = spec.time_limit;
  options.checks = checks;
  options.check_estimate = [&spec](const GeoMeshEstimate& e) { resources::require_geo_mesh_fits(spec, e, host_available_memory()); };
  return gmsh_library().mesh_from_geo(spec.file, options);
#else
  throw CaseError(spec.file.string() + ": this build of fem has no Gmsh (FEM_WITH_GMSH=OFF): use a 'box' mesh");
#endif
}

}  // namespace fem

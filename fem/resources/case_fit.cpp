#include "fem/resources/case_fit.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "kernels/device_queries.hpp"
#include "solvers/solver_table.hpp"

namespace fem::resources {
namespace {

int dofs_per_node(const Case& c, int dimension) { return c.physics.type == PhysicsType::Heat ? 1 : dimension; }

}  // namespace

std::size_t box_case_bytes(const Case& c) {
  if (c.mesh.source != MeshSpec::Source::Box) return 0;
  const MeshSize mesh = box_mesh_size(c.mesh.box);
  const std::int64_t couplings = estimated_node_couplings(mesh);
  const double d = dofs_per_node(c, mesh.dimension);
  const bool assembles = assembles_matrix(c.solver.method);
  return mesh_bytes(mesh) + graph_bytes(mesh.nodes, couplings) +
         (assembles ? matrix_bytes(static_cast<std::int64_t>(d * mesh.nodes), static_cast<std::int64_t>(d * d * couplings)) : 0);
}

void require_mesh_fits(const Case& c, std::size_t available) {
  const std::size_t bytes = box_case_bytes(c);
  if (bytes <= available) return;
  const MeshSize mesh = box_mesh_size(c.mesh.box);
  // Memory grows with the number of cells: scale every axis alike, with a margin.
  const double factor = std::pow(0.7 * static_cast<double>(available) / static_cast<double>(bytes), 1.0 / mesh.dimension);
  require_memory(bytes, available,
                 c.file.string() + ": the box mesh of " + std::to_string(mesh.cells) + " cells and " + std::to_string(mesh.nodes) +
                     " nodes (mesh, node graph" + (assembles_matrix(c.solver.method) ? ", matrix" : "") + ")",
                 "a box that fits: " + scaled_box_divisions(c.mesh.box, factor));
}

void require_geo_mesh_fits(const MeshSpec& spec, const GeoMeshEstimate& estimate, std::size_t available) {
  const auto bytes_at = [&](const GeoMeshEstimate& e) {
    const MeshSize mesh = geo_mesh_size(e, spec.order, spec.serendipity);
    return gmsh_meshing_bytes(mesh) + mesh_bytes(mesh);
  };
  const std::size_t bytes = bytes_at(estimate);
  if (bytes <= available) return;
  // The element size at which this same estimate fits with a margin: cells go as the size to the
  // power -dimension, and the size grows until the estimate agrees.
  const double margin = 0.7 * static_cast<double>(available);
  GeoMeshEstimate fits = estimate;
  fits.element_size = estimate.element_size * std::pow(static_cast<double>(bytes) / margin, 1.0 / estimate.dimension);
  for (int grow = 0; grow < 100; ++grow, fits.element_size *= 1.05) {
    fits.cells = cells_of_size(fits.dimension, fits.shape, fits.measure, fits.element_size);
    if (static_cast<double>(bytes_at(fits)) <= margin) break;
  }
  std::ostringstream what, smaller;
  what << spec.file.string() << ": about " << std::setprecision(3) << static_cast<double>(estimate.cells) << " cells (estimated from "
       << (estimate.from_bounding_box ? "its bounding box: " : "the mesh of its boundary: ") << (estimate.dimension == 2 ? "area " : "volume ")
       << estimate.measure << ", element size " << estimate.element_size << "), meshed by Gmsh,";
  // mesh.size only caps Gmsh's sizes: where the .geo's own sizes are finer, it cannot coarsen them.
  if (spec.size > 0 && estimate.element_size > 0.5 * spec.size)
    smaller << "mesh.size " << std::setprecision(2) << fits.element_size << " would fit";
  else
    smaller << "elements of about " << std::setprecision(2) << fits.element_size
            << " would fit, but the .geo sets its sizes itself (a point's size, Mesh.MeshSize* options, a Field) finer than "
            << (spec.size > 0 ? "mesh.size" : "any mesh.size") << ", which only caps them: make those coarser";
  require_memory(bytes, available, what.str(), smaller.str());
}

SystemSize system_size(const renumber::NodeGraph& graph, const renumber::OrderingMetrics& ordered, int dimension, int dofs_per_node) {
  SystemSize s;
  s.dimension = dimension;
  s.dofs_per_node = dofs_per_node;
  const std::int64_t d = dofs_per_node;
  s.dofs = static_cast<std::int64_t>(graph.num_nodes()) * d;
  s.nnz = (static_cast<std::int64_t>(graph.num_edges_directed()) + graph.num_nodes()) * d * d;
  s.bandwidth = ordered.bandwidth;
  s.profile = ordered.profile;
  s.max_wavefront = ordered.max_wavefront;
  s.rms_wavefront = ordered.rms_wavefront;
  return s;
}

std::size_t solve_bytes(SolverMethodId method, const SystemSize& system) {
  const SolverEstimate e = estimate_solver(method, system);
  return (e.uses_matrix ? matrix_bytes(system.dofs, system.nnz) : 0) + e.bytes;
}

void require_system_fits(const Case& c, const SystemSize& system, std::size_t available) {
  // A CUDA solver keeps its matrix, factor or vectors on the GPU (checked against the device's
  // free memory when there is one); the host keeps the assembled matrix.
  const std::string what = c.file.string() + ": " + name_of(c.solver.method) + " on " + std::to_string(system.dofs) + " equations (bandwidth " +
                           std::to_string(system.bandwidth) + ", " + std::to_string(system.nnz) + " nonzeros)";
  const bool on_host = c.solver.device != Device::Cuda;
  // Asked only of a cuda run: the question makes the runtime create the device's context.
  if (const std::size_t on_gpu = on_host ? 0 : kernels::cuda_free_memory(); on_gpu > 0)
    require_memory(solve_bytes(c.solver.method, system), on_gpu, what + " on the GPU",
                   "a coarser mesh, or the same solver on the cpu device");
  const std::size_t bytes = on_host ? solve_bytes(c.solver.method, system) : matrix_bytes(system.dofs, system.nnz);
  if (bytes <= available) return;
  std::string smaller = "a coarser mesh (mesh.size, or fewer box divisions) would fit";
  for (const auto& method : solver_table())
    if (const std::size_t other = solve_bytes(method.id, system); method.built() && other <= available) {
      smaller = "solver.method " + std::string(name_of(method.id)) + " would need about " + bytes_text(static_cast<double>(other)) + ", or " + smaller;
      break;
    }
  require_memory(bytes, available, what, smaller);
}

}  // namespace fem::resources

#pragma once
// What a case will need before it is asked for: memory of each stage, from
// the sizes known at that point: the box spec before meshing, the node graph and ordering
// before assembly. Compared with the memory available, so that a case that cannot fit is
// refused in seconds, with a smaller setting that fits, instead of ending in std::bad_alloc or
// the OOM killer. The figures are estimates (within a factor of about 2), not promises.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/mesh/box_mesh.hpp"
#include "fem/mesh/geo_mesh_estimate.hpp"
#include "solvers/solver_choices.hpp"

namespace fem::resources {

// A case that needs more memory than there is.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Sizes of a mesh as the estimates need them.
struct MeshSize {
  std::int64_t nodes = 0, cells = 0;
  int nodes_per_cell = 0;
  int dimension = 0;
};
MeshSize box_mesh_size(const BoxSpec& box);
// The mesh Gmsh makes of `estimate`'s cells in elements of `order`: nodes from the cells by the
// vertices, edges (and faces) a cell of that shape has in a large mesh.
MeshSize geo_mesh_size(const GeoMeshEstimate& estimate, int order, bool serendipity);
// Gmsh's own memory while it makes those cells (measured with Gmsh 4.8: 740 bytes a triangle at
// 580k triangles, 530 a tetrahedron at 350k).
std::size_t gmsh_meshing_bytes(const MeshSize& mesh);

// Nonzeros of the node graph (pairs of nodes that share a cell, the diagonal included).
std::int64_t estimated_node_couplings(const MeshSize& mesh);

// The Mesh value itself: coordinates, connectivity, groups.
std::size_t mesh_bytes(const MeshSize& mesh);
// The node graph (renumbering) and the assembled CSR matrix with its load and solution vectors.
std::size_t graph_bytes(std::int64_t nodes, std::int64_t node_couplings);
std::size_t matrix_bytes(std::int64_t dofs, std::int64_t nnz);

// The matrix as the solvers see it (in equations, after renumbering).
struct SystemSize {
  std::int64_t dofs = 0, nnz = 0;
  std::int64_t bandwidth = 0, profile = 0, max_wavefront = 0;
  double rms_wavefront = 0;
  int dimension = 3, dofs_per_node = 1;  // of the mesh; the sparse factors' fill depends on both
};

// What one solver adds to the assembled system (a direct solver's factor, the Krylov vectors),
// from the method's footprint in the solver table; `uses_matrix`: false for the frontal method,
// which never assembles. Its time: time_estimate.hpp.
struct SolverEstimate {
  SolverMethodId method;
  std::size_t bytes = 0;
  bool uses_matrix = true;
  std::string basis;  // what the estimate counts, for `fem check`
};
// Entries of a nested-dissection factor of `system`'s mesh (multifrontal, MUMPS).
double nested_dissection_entries(const SystemSize& system);
SolverEstimate estimate_solver(SolverMethodId method, const SystemSize& system);
// Whether `method` works on the assembled matrix (all but the frontal method, which never assembles).
bool assembles_matrix(SolverMethodId method);

// "1.2 GiB", "340 MiB".
std::string bytes_text(double bytes);

// Throws ResourceError "`what` needs about X; Y is available (`smaller`)" when bytes > available.
void require_memory(std::size_t bytes, std::size_t available, const std::string& what, const std::string& smaller);

// The box with its divisions scaled by `factor` per axis (at least 1), as a case writes it:
// "divisions: [40, 40, 40]".
std::string scaled_box_divisions(const BoxSpec& box, double factor);

}  // namespace fem::resources

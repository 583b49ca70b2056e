#pragma once
// The memory checks `fem run` and `fem check` make at the two points where a case's size is
// known: before meshing (a built-in box: its size follows from its divisions) and after
// renumbering (the node graph gives the nonzeros, the ordering the band and the front).
#include <cstddef>
#include <string>

#include "fem/case/case.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/ordering_metrics.hpp"
#include "fem/resources/memory_estimate.hpp"

namespace fem::resources {

// The mesh, node graph and (for solvers that assemble) matrix of a box case; 0 for meshes
// from files, whose size is not known before Gmsh makes them.
std::size_t box_case_bytes(const Case& c);

// Throws ResourceError naming the case file, the estimate, what is available and box divisions
// that fit, when a box case would not fit in `available` bytes.
void require_mesh_fits(const Case& c, std::size_t available);

// Throws ResourceError naming the .geo, the cells estimated from its boundary mesh and a
// mesh.size that fits, when Gmsh making them and fem's copy of them would not fit in
// `available` bytes.
void require_geo_mesh_fits(const MeshSpec& spec, const GeoMeshEstimate& estimate, std::size_t available);

SystemSize system_size(const renumber::NodeGraph& graph, const renumber::OrderingMetrics& ordered, int dimension, int dofs_per_node);

// What `method` needs beyond what is allocated by now: the matrix (when it assembles) and its own.
std::size_t solve_bytes(SolverMethodId method, const SystemSize& system);

// Throws ResourceError naming the solver, the estimate, what is available, and a method that
// would fit (or a coarser mesh) when the system and the solver would not fit in `available`.
void require_system_fits(const Case& c, const SystemSize& system, std::size_t available);

}  // namespace fem::resources

#include "fem/resources/memory_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "solvers/direct/available_memory.hpp"
#include "solvers/solver_table.hpp"

namespace fem::resources {
namespace {

// Average node-graph row length of structured meshes, per element type (the diagonal included).
double couplings_per_node(int dimension, int nodes_per_cell) {
  if (dimension == 2) {
    switch (nodes_per_cell) {
      case 3: return 7;    // tri3
      case 4: return 9;    // quad4
      case 6: return 13;   // tri6
      case 8: return 14;   // quad8
      default: return 15;  // quad9
    }
  }
  switch (nodes_per_cell) {
    case 4: return 15;   // tet4
    case 8: return 27;   // hex8
    case 10: return 30;  // tet10
    case 20: return 50;  // hex20
    default: return 64;  // hex27
  }
}

}  // namespace

MeshSize box_mesh_size(const BoxSpec& box) {
  MeshSize m;
  m.dimension = static_cast<int>(box.size.size());
  m.nodes_per_cell = element_info(element_type_for(box.shape, box.order, box.serendipity)).num_nodes;
  double nodes = 1, cells = 1;
  for (int d : box.divisions) {
    nodes *= static_cast<double>(box.order) * d + 1;
    cells *= d;
  }
  if (box.shape == ElementShape::Triangle) cells *= 2;
  if (box.shape == ElementShape::Tetrahedron) cells *= 6;
  m.nodes = static_cast<std::int64_t>(std::min(nodes, 9e18));
  m.cells = static_cast<std::int64_t>(std::min(cells, 9e18));
  return m;
}

MeshSize geo_mesh_size(const GeoMeshEstimate& estimate, int order, bool serendipity) {
  MeshSize m;
  m.dimension = estimate.dimension;
  m.nodes_per_cell = element_info(element_type_for(estimate.shape, order, serendipity)).num_nodes;
  m.cells = estimate.cells;
  // Per cell in a large mesh: vertices, edges, and for quad9 / hex27 the faces (hexahedra's) and a node inside.
  const double cells = static_cast<double>(estimate.cells);
  double vertices = cells, edges = 2 * cells, faces = 0;
  switch (estimate.shape) {
    case ElementShape::Triangle:
      vertices = cells / 2, edges = 1.5 * cells;
      break;
    case ElementShape::Tetrahedron:
      vertices = cells / 5.5, edges = 1.2 * cells;
      break;
    case ElementShape::Hexahedron:
      edges = 3 * cells, faces = 3 * cells;
      break;
    default:
      break;
  }
  const bool full = order == 2 && !serendipity && (estimate.shape == ElementShape::Quadrilateral || estimate.shape == ElementShape::Hexahedron);
  const double nodes = vertices + (order == 2 ? edges : 0) + (full ? faces + cells : 0);
  m.nodes = static_cast<std::int64_t>(std::min(nodes, 9e18));
  return m;
}

std::size_t gmsh_meshing_bytes(const MeshSize& mesh) { return static_cast<std::size_t>(std::min(750.0 * static_cast<double>(mesh.cells), 1e19)); }

std::int64_t estimated_node_couplings(const MeshSize& mesh) {
  return static_cast<std::int64_t>(std::min(9e18, couplings_per_node(mesh.dimension, mesh.nodes_per_cell) * mesh.nodes));
}

std::size_t mesh_bytes(const MeshSize& mesh) {
  // Coordinates; per cell its type, offset, nodes, group entry and material.
  return static_cast<std::size_t>(24.0 * mesh.nodes + (28.0 + 4.0 * mesh.nodes_per_cell) * mesh.cells);
}

std::size_t graph_bytes(std::int64_t nodes, std::int64_t node_couplings) {
  return static_cast<std::size_t>(4.0 * node_couplings + 16.0 * nodes);  // CSR of int plus the permutations
}

std::size_t matrix_bytes(std::int64_t dofs, std::int64_t nnz) {
  return static_cast<std::size_t>(12.0 * nnz + 40.0 * dofs);  // values, columns; row starts, load, solution, dof map
}

double nested_dissection_entries(const SystemSize& s) {
  // Fitted to our multifrontal solver and CHOLMOD on hex8, tet10 and quad4 boxes
  // (bench/results/2026-11-23-multifrontal.md): separators of N^(2/3) nodes in 3D, N^(1/2) in
  // 2D, each node a block of d unknowns.
  const double n = static_cast<double>(s.dofs), d = s.dofs_per_node;
  return s.dimension == 3 ? 11.5 * std::pow(d, 2.0 / 3) * std::pow(n, 4.0 / 3) : 2.8 * d * n * std::log2(std::max(n, 2.0));
}

SolverEstimate estimate_solver(SolverMethodId method, const SystemSize& s) {
  SolverEstimate e;
  e.method = method;
  const SolverMethod* row = find_solver_method(method);
  if (!row) {
    e.basis = "no estimate for this method";
    return e;
  }
  const Footprint& f = row->footprint;
  const double n = static_cast<double>(s.dofs), b = static_cast<double>(s.bandwidth);
  switch (f.shape) {
    case Footprint::Band:
    case Footprint::BandBothTriangles: {
      const bool lu = f.shape == Footprint::BandBothTriangles;
      e.bytes = static_cast<std::size_t>(8 * n * (lu ? 3 * b + 1 : b + 1));
      e.basis = std::string("band of ") + (lu ? "3b+1" : "b+1") + " columns";
      break;
    }
    case Footprint::ProfileAndFront: {
      const double front = static_cast<double>(s.max_wavefront);
      e.uses_matrix = false;
      e.bytes = static_cast<std::size_t>(8 * (static_cast<double>(s.profile) + n) + 8 * front * front);
      e.basis = "factor of profile + n entries, front matrix of max wavefront^2";
      break;
    }
    case Footprint::NestedDissectionFactor:
      // A supernode's entries share their row indices (about 8.5 bytes an entry), and the update
      // matrices add up to three quarters of the factor at their peak.
      e.bytes = static_cast<std::size_t>(1.75 * 8.5 * nested_dissection_entries(s) + 12 * f.matrix_copies * static_cast<double>(s.nnz));
      e.basis = std::string("nested-dissection fill of a ") + (s.dimension == 3 ? "3D" : "2D") + " mesh" +
                (f.matrix_copies > 0 ? ", and its own copies of the matrix" : "");
      break;
    case Footprint::KrylovVectors:
      e.bytes = static_cast<std::size_t>(8.0 * f.vectors * n + 12 * f.matrix_copies * static_cast<double>(s.nnz));
      e.basis = std::to_string(f.vectors) + " vectors of n" + (f.matrix_copies > 0 ? " and its own matrix with GAMG's levels" : "");
      break;
  }
  return e;
}

bool assembles_matrix(SolverMethodId method) {
  const SolverMethod* row = find_solver_method(method);
  return !row || row->footprint.shape != Footprint::ProfileAndFront;
}

std::string bytes_text(double bytes) {
  const double gib = bytes / (1024.0 * 1024 * 1024);
  std::ostringstream s;
  if (gib >= 1000) s << std::fixed << std::setprecision(0);  // 3031 GiB, not 3.03e+03 GiB
  else s << std::setprecision(3);
  if (gib >= 1) s << gib << " GiB";
  else s << bytes / (1024.0 * 1024) << " MiB";
  return s.str();
}

void require_memory(std::size_t bytes, std::size_t available, const std::string& what, const std::string& smaller) {
  if (bytes <= available) return;
  throw ResourceError(what + " needs about " + bytes_text(static_cast<double>(bytes)) + " but " +
                      bytes_text(static_cast<double>(available)) + " is available" +
                      (smaller.empty() ? "" : "; " + smaller));
}

std::string scaled_box_divisions(const BoxSpec& box, double factor) {
  std::string out = "divisions: [";
  for (std::size_t i = 0; i < box.divisions.size(); ++i)
    out += (i ? ", " : "") + std::to_string(std::max(1, static_cast<int>(box.divisions[i] * factor)));
  return out + "]";
}

}  // namespace fem::resources

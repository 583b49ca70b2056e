#pragma once
// Assembly of the global matrix (CSR, both triangles) and load vector from element
// contributions, in parallel with OpenMP.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fem/assembly/dof_map.hpp"
#include "fem/assembly/element_coloring.hpp"
#include "fem/physics/mass_matrix.hpp"
#include "fem/physics/problem.hpp"
#include "fem/renumber/node_graph.hpp"
#include "kernels/block_matrix.hpp"
#include "kernels/csr_matrix.hpp"
#include "solvers/progress_meter.hpp"

namespace fem {

// How threads avoid writing the same entry at once: colouring (blocks of consecutive elements,
// no two blocks of a colour sharing a node: color_element_blocks) or a private copy of the
// values per thread, summed at the end.
enum class AssemblyStrategy { Coloring, ThreadBuffers };
AssemblyStrategy parse_assembly_strategy(const std::string& name);

struct AssembledSystemData {
  CsrMatrix matrix;
  std::vector<double> rhs;   // external loads: body, tractions, pressure, flux, convection
  int colors = 0;            // colours of the element blocks (Coloring)
  // K in d x d node blocks instead of `matrix` (then empty), where the assembly was asked for the
  // format of a solver that multiplies blocks (the CUDA device's, for AMG).
  kernels::BlockMatrix<double> blocks;
  // The same blocks in the device's memory where the device assembled them (SystemMatrix::blocks_on_device);
  // `blocks` then has no values (empty val) until they are copied back (values_to_host).
  std::shared_ptr<const kernels::SparseMatrix> blocks_on_device;
  bool in_node_blocks() const { return blocks.block_rows > 0; }
};

// The CSR structure of the dof matrix (graph: the node adjacency in mesh numbering): row of (node, c) holds every dof of the node and its neighbours.
CsrMatrix sparsity_pattern(const renumber::NodeGraph& graph, const DofMap& dofs);
// The same structure in d x d node blocks (block row r: the node of rank r, its columns the ranks
// of the node and its neighbours, sorted), its values zero (written row by row by the threads),
// or none where `with_values` is false (values that stay on a device).
kernels::BlockMatrix<double> node_block_pattern(const renumber::NodeGraph& graph, const DofMap& dofs,
                                                bool with_values = true);

// `progress` (none when null) hears the elements assembled. `in_node_blocks`: K into
// AssembledSystemData::blocks alone (no CSR), for a solver that takes them.
AssembledSystemData assemble(const Problem& problem, const DofMap& dofs, const renumber::NodeGraph& graph,
                             AssemblyStrategy strategy = AssemblyStrategy::Coloring, ProgressMeter* progress = nullptr,
                             bool in_node_blocks = false);

// The load vector of `problem` alone (body and boundary loads; no matrix, no Dirichlet lifting),
// from the same element and facet loads as assemble(): a load set's right-hand side on a K
// assembled once. Boundary loads give their matrix-free part (convection: h T_inf). Without
// `body_loads`, the boundary loads alone (the device integrates the body loads with K).
std::vector<double> assemble_loads(const Problem& problem, const DofMap& dofs, bool body_loads = true);

// The mass (elasticity) or heat capacity (heat) matrix on the same pattern as assemble()'s
// matrix, by the same loop; no constraints applied.
CsrMatrix assemble_mass(const Problem& problem, const DofMap& dofs, const renumber::NodeGraph& graph,
                        MassLumping lumping = MassLumping::Consistent,
                        AssemblyStrategy strategy = AssemblyStrategy::Coloring);

}  // namespace fem

#include "fem/assembly/device_assembly.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "fem/assembly/device_inputs.hpp"
#include "fem/physics/element_matrices.hpp"
#include "kernels/stiffness_assembler.hpp"
#include "support/step_times.hpp"

namespace fem {

bool device_can_assemble(const Problem& problem) {
  const bool thermal_strain = !problem.temperature.empty() &&
                              std::any_of(problem.materials.begin(), problem.materials.end(),
                                          [](const IsotropicMaterial& m) { return m.alpha != 0; });
  return !thermal_strain;
}

namespace {

// The matrix terms of the boundary loads (convection's h N N^T on its facets), by equation, for
// the device to add to K: few facets beside the cells, so the host's facet_contribution makes them.
struct BoundaryEntries {
  std::vector<std::int64_t> row, column;
  std::vector<double> value;
};

BoundaryEntries boundary_matrix_entries(const Problem& problem, const DofMap& dofs) {
  BoundaryEntries out;
  const int d = dofs.dofs_per_node;
  ElementBuffers buffers;
  for (const auto& load : problem.loads) {
    if (load.kind != BoundaryLoad::Kind::Convection) continue;
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      facet_contribution(problem, load, k, buffers);
      const auto nodes = problem.mesh->boundary.nodes_of(load.facets[k]);
      const std::size_t nd = nodes.size() * static_cast<std::size_t>(d);
      if (buffers.matrix.size() != nd * nd) continue;
      for (std::size_t i = 0; i < nd; ++i)
        for (std::size_t j = 0; j < nd; ++j) {
          out.row.push_back(dofs.dof(nodes[i / d], static_cast<int>(i % d)));
          out.column.push_back(dofs.dof(nodes[j / d], static_cast<int>(j % d)));
          out.value.push_back(buffers.matrix[i * nd + j]);
        }
    }
  }
  return out;
}

}  // namespace

std::optional<AssembledSystemData> assemble_on_cuda(const Problem& problem, const DofMap& dofs,
                                                    const renumber::NodeGraph& graph, const Constraints& constraints,
                                                    bool in_node_blocks) {
  if (!device_can_assemble(problem)) return std::nullopt;
  auto assembler = kernels::cuda_stiffness_assembler();
  if (!assembler) return std::nullopt;

  AssembledSystemData out;
  timed_step("assemble.pattern", [&] {
    if (in_node_blocks) out.blocks = node_block_pattern(graph, dofs, false);  // its values stay on the device
    else out.matrix = sparsity_pattern(graph, dofs);
  });
  // Uniform body forces are integrated on the device with K; a body force given point by point
  // (a function of position) on the host.
  const bool body_on_device = !problem.body;
  out.rhs = timed_step("assemble.loads", [&] { return assemble_loads(problem, dofs, !body_on_device); });
  std::vector<double> body_force;
  if (body_on_device && has_body_load(problem))
    for (const IsotropicMaterial& m : problem.materials) {
      const auto f = uniform_body_force(problem, m);
      body_force.insert(body_force.end(), f.begin(), f.end());
    }
  const PhysicsModel& physics = problem.physics;
  const std::vector<std::int64_t> first_dof = first_dofs(dofs);
  const MaterialConstants materials = material_constants(problem);
  const auto by_type = timed_step("assemble.cells_by_type", [&] { return cells_by_type(problem); });

  kernels::StiffnessAssembly in;
  in.space_dim = physics.space_dim;
  in.elastic = physics.type == PhysicsType::Elasticity;
  in.axisymmetric = physics.axisymmetric();
  in.thickness = physics.thickness;
  in.coords = problem.mesh->coords;
  in.first_dof = first_dof;
  in.lambda = materials.lambda;
  in.mu = materials.mu;
  in.k = materials.k;
  in.batches = cell_batches(by_type);
  in.row_ptr = in_node_blocks ? std::span<const std::int64_t>(out.blocks.row_ptr) : out.matrix.row_ptr;
  in.col = in_node_blocks ? out.blocks.col : out.matrix.col;
  in.node_blocks = in_node_blocks;
  in.prescribed = constraints.prescribed;
  const BoundaryEntries boundary = timed_step("assemble.boundary_entries", [&] { return boundary_matrix_entries(problem, dofs); });
  in.entry_row = boundary.row;
  in.entry_column = boundary.column;
  in.entry_value = boundary.value;
  in.body_force = body_force;

  const std::int64_t inverted = assembler->assemble(in, in_node_blocks ? std::span<double>{} : out.matrix.val, out.rhs);
  if (inverted >= 0) {
    // The host's kernel on that cell gives the message (and the exception) host assembly gives.
    ElementBuffers buffers;
    cell_contribution(problem, static_cast<std::size_t>(inverted), buffers);
    throw InvertedElement(static_cast<std::size_t>(inverted),
                          "element " + std::to_string(inverted) + " is inverted or degenerate (found on the device)");
  }
  out.blocks_on_device = assembler->take_matrix();
  return out;
}

}  // namespace fem

#include "fem/assembly/device_assembly.hpp"

#include <algorithm>

#include "fem/assembly/device_inputs.hpp"
#include "fem/physics/element_matrices.hpp"
#include "kernels/stiffness_assembler.hpp"
#include "support/step_times.hpp"

namespace fem {

bool device_can_assemble(const Problem& problem) {
  const bool thermal_strain = !problem.temperature.empty() &&
                              std::any_of(problem.materials.begin(), problem.materials.end(),
                                          [](const IsotropicMaterial& m) { return m.alpha != 0; });
  const bool convection = std::any_of(problem.loads.begin(), problem.loads.end(), [](const BoundaryLoad& l) {
    return l.kind == BoundaryLoad::Kind::Convection;
  });
  return !thermal_strain && !convection;
}

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
  out.rhs = timed_step("assemble.loads", [&] { return assemble_loads(problem, dofs); });
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

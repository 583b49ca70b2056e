#include "fem/post/device_recovery.hpp"

#include "fem/assembly/device_inputs.hpp"
#include "kernels/gradient_recovery.hpp"

namespace fem {

bool device_can_recover(const Problem& problem) {
  const PhysicsModel& physics = problem.physics;
  if (physics.type == PhysicsType::Heat) return true;
  return physics.model == ElasticModel::Solid3D && physics.space_dim == 3 && problem.temperature.empty();
}

std::optional<CellResults> sweep_cells_on_cuda(const Problem& problem, const DofMap& dofs,
                                               std::span<const double> solution) {
  if (!device_can_recover(problem)) return std::nullopt;
  auto recoverer = kernels::cuda_gradient_recoverer();
  if (!recoverer) return std::nullopt;

  const std::vector<std::int64_t> first_dof = first_dofs(dofs);
  const MaterialConstants materials = material_constants(problem);
  const auto by_type = cells_by_type(problem);
  kernels::GradientRecovery in;
  in.space_dim = problem.physics.space_dim;
  in.elastic = problem.physics.type == PhysicsType::Elasticity;
  in.coords = problem.mesh->coords;
  in.first_dof = first_dof;
  in.lambda = materials.lambda;
  in.mu = materials.mu;
  in.k = materials.k;
  in.solution = solution;
  in.batches = cell_batches(by_type);
  for (const auto& [type, cells] : by_type) in.extrapolation.push_back(nodal_extrapolation(type));

  const std::size_t nodes = problem.mesh->num_nodes();
  const auto width = static_cast<std::size_t>(gradient_width(problem));
  CellResults out;
  out.gradients.resize(nodes * width);
  kernels::UninitializedVector<int> counts(nodes);
  if (!recoverer->recover(in, out.gradients, counts)) return std::nullopt;
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nodes; ++n)
    if (counts[n] > 0)
      for (std::size_t k = 0; k < width; ++k) out.gradients[n * width + k] /= counts[n];
  out.body_load = body_load_total(problem, dofs.dofs_per_node);
  return out;
}

}  // namespace fem

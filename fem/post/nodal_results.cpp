#include "fem/post/nodal_results.hpp"

#include "fem/physics/material_law.hpp"
#include "fem/post/cell_results.hpp"
#include "fem/post/device_recovery.hpp"
#include "fem/post/principal_stress.hpp"
#include "fem/post/reactions.hpp"
#include "support/step_times.hpp"

namespace fem {

NodalResults recover_results(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                             std::span<const double> u, std::span<const std::size_t> cells, SweepOn sweep) {
  const std::size_t nn = problem.mesh->num_nodes();
  const int dim = problem.physics.space_dim;
  const bool elastic = problem.physics.type == PhysicsType::Elasticity;
  const auto value = [&](std::size_t node, int c) { return u[dofs.dof(static_cast<int>(node), c)]; };
  NodalResults r;

  const CellResults swept = [&] {
    if (sweep == SweepOn::CudaWherePossible && cells.empty())
      if (auto on_device = timed_step("post.sweep_on_cuda", [&] { return sweep_cells_on_cuda(problem, dofs, u); }))
        return std::move(*on_device);
    return timed_step("post.sweep", [&] { return sweep_cells(problem, dofs, u, cells); });
  }();
  Stopwatch watch;
  const NodalArray& gradients = swept.gradients;
  const int width = gradient_width(problem);
  if (elastic) {
    r.displacement.resize(3 * nn);
    r.strain.resize(6 * nn);
    r.stress.resize(6 * nn);
    r.von_mises.resize(nn);
    r.principal_stress.resize(3 * nn);
    r.tresca.resize(nn);
#pragma omp parallel for schedule(static)
    for (std::size_t n = 0; n < nn; ++n) {
      for (int c = 0; c < 3; ++c) r.displacement[3 * n + c] = c < dim ? value(n, c) : 0.0;
      std::array<double, 6> s;
      for (int k = 0; k < 6; ++k) {
        r.strain[6 * n + k] = gradients[n * width + k];
        s[k] = r.stress[6 * n + k] = gradients[n * width + 6 + k];
      }
      r.von_mises[n] = von_mises(s);
      const auto principal = principal_stresses(s);
      std::copy(principal.begin(), principal.end(), &r.principal_stress[3 * n]);
      r.tresca[n] = tresca(principal);
    }
  } else {
    r.temperature.resize(nn);
    r.heat_flux.resize(3 * nn);
#pragma omp parallel for schedule(static)
    for (std::size_t n = 0; n < nn; ++n) {
      r.temperature[n] = value(n, 0);
      for (int k = 0; k < 3; ++k) r.heat_flux[3 * n + k] = k < dim ? gradients[n * width + k] : 0.0;
    }
  }

  StepTimes::process().add("post.nodal", watch.seconds());
  Reactions at_constraints = timed_step("post.reactions", [&] { return reactions(problem, dofs, constraints, u, cells); });
  r.body_load = swept.body_load;
  for (int c = 0; c < 3; ++c) r.applied_load[c] = swept.body_load[c] + at_constraints.boundary_load[c];
  r.reaction = std::move(at_constraints.reaction);
  r.group_reactions = group_reactions(problem, r.reaction);
  return r;
}

std::map<std::string, std::array<double, 3>> group_reactions(const Problem& problem, std::span<const double> reaction) {
  const int d = problem.physics.dofs_per_node();
  const std::size_t rc = problem.physics.type == PhysicsType::Elasticity ? 3 : 1;
  std::map<std::string, std::array<double, 3>> totals;
  for (const auto& condition : problem.dirichlet) {
    auto& total = totals[condition.group];
    for (int n : condition.nodes)
      for (int c = 0; c < d; ++c)
        if (condition.component[c]) total[c] += reaction[rc * static_cast<std::size_t>(n) + c];
  }
  return totals;
}

}  // namespace fem

#pragma once
// The cells' sweep (cell_results.hpp) on the CUDA device (kernels/gradient_recovery.hpp), where the
// system was assembled and solved there: the device computes and extrapolates every cell's strain
// and stress (or heat flux), the host divides the nodes' sums and totals the body load.
#include <optional>
#include <span>

#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/cell_results.hpp"

namespace fem {

// True when the device's recovery takes this problem: heat, or 3D solid elasticity without a
// temperature field (thermal strain, and the 2D models' out-of-plane strain, stay on the host).
bool device_can_recover(const Problem& problem);

// sweep_cells over every cell, on the device; none when this build or machine has no CUDA device,
// the problem is not one the device takes or the device has not the memory free.
std::optional<CellResults> sweep_cells_on_cuda(const Problem& problem, const DofMap& dofs,
                                               std::span<const double> solution);

}  // namespace fem

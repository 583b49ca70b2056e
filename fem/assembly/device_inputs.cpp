#include "fem/assembly/device_inputs.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <omp.h>

#include "fem/elements/shape_table.hpp"
#include "fem/physics/material_law.hpp"

namespace fem {

// The cells of each type listed in mesh order by the threads, each its own range of cells (counted
// first, then written from its offsets); their nodes and materials copied in parallel too.
std::map<ElementType, CellsOfType> cells_by_type(const Problem& problem) {
  const ElementSet& cells = problem.mesh->cells;
  using PerType = std::array<std::int64_t, kElementTypeCount>;
  const auto count = static_cast<std::int64_t>(cells.size());
  std::vector<PerType> next(static_cast<std::size_t>(omp_get_max_threads()), PerType{});  // a thread's count, then its offset
  std::map<ElementType, CellsOfType> out;
  std::array<std::int64_t*, kElementTypeCount> listed{};
#pragma omp parallel
  {
    PerType& mine = next[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t e = 0; e < count; ++e) ++mine[static_cast<std::size_t>(cells.type[e])];
#pragma omp single
    for (std::size_t t = 0; t < kElementTypeCount; ++t) {
      std::int64_t total = 0;
      for (PerType& thread : next) total += std::exchange(thread[t], total);
      if (total == 0) continue;
      CellsOfType& group = out[static_cast<ElementType>(t)];
      group.cell.resize(static_cast<std::size_t>(total));
      listed[t] = group.cell.data();
    }
    // The same static schedule over the same cells: each thread lists the cells it counted.
#pragma omp for schedule(static)
    for (std::int64_t e = 0; e < count; ++e) {
      const auto t = static_cast<std::size_t>(cells.type[e]);
      listed[t][mine[t]++] = e;
    }
  }
  for (auto& [type, group] : out) {
    const auto listed_cells = static_cast<std::int64_t>(group.cell.size());
    const auto per_cell = static_cast<std::int64_t>(cells.nodes_of(static_cast<std::size_t>(group.cell[0])).size());
    group.node.resize(static_cast<std::size_t>(listed_cells * per_cell));
    group.material.resize(static_cast<std::size_t>(listed_cells));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < listed_cells; ++i) {
      const auto e = static_cast<std::size_t>(group.cell[i]);
      const auto nodes = cells.nodes_of(e);
      std::copy(nodes.begin(), nodes.end(), group.node.begin() + i * per_cell);
      group.material[i] = problem.cell_material[e];
    }
  }
  return out;
}

std::vector<kernels::CellBatch> cell_batches(const std::map<ElementType, CellsOfType>& by_type) {
  std::vector<kernels::CellBatch> batches;
  for (const auto& [type, cells] : by_type) {
    const ShapeTable& table = stiffness_shape_table(type);
    batches.push_back({table.nodes, table.points, table.weight, table.N, table.dN, cells.node, cells.cell,
                       cells.material});
  }
  return batches;
}

std::vector<std::int64_t> first_dofs(const DofMap& dofs) {
  std::vector<std::int64_t> first(dofs.node_rank.size());
#pragma omp parallel for schedule(static)
  for (std::size_t node = 0; node < first.size(); ++node) first[node] = dofs.dof(static_cast<int>(node), 0);
  return first;
}

MaterialConstants material_constants(const Problem& problem) {
  const PhysicsModel& physics = problem.physics;
  MaterialConstants out;
  for (const IsotropicMaterial& m : problem.materials) {
    const LameConstants lame = physics.type == PhysicsType::Elasticity ? lame_constants(physics.model, m) : LameConstants{};
    out.lambda.push_back(lame.lambda);
    out.mu.push_back(lame.mu);
    out.k.push_back(m.k);
  }
  return out;
}

}  // namespace fem

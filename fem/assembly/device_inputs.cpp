#include "fem/assembly/device_inputs.hpp"

#include <algorithm>

#include "fem/elements/shape_table.hpp"
#include "fem/physics/material_law.hpp"

namespace fem {

// The cells' numbers are listed by one pass; their nodes and materials are copied in parallel
// (millions of cells: the copies are most of the bytes).
std::map<ElementType, CellsOfType> cells_by_type(const Problem& problem) {
  const ElementSet& cells = problem.mesh->cells;
  std::map<ElementType, CellsOfType> out;
  for (std::size_t e = 0; e < cells.size(); ++e) out[cells.type[e]].cell.push_back(static_cast<std::int64_t>(e));
  for (auto& [type, group] : out) {
    const auto count = static_cast<std::int64_t>(group.cell.size());
    const auto per_cell = static_cast<std::int64_t>(cells.nodes_of(static_cast<std::size_t>(group.cell[0])).size());
    group.node.resize(static_cast<std::size_t>(count * per_cell));
    group.material.resize(static_cast<std::size_t>(count));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) {
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

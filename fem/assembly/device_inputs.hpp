#pragma once
// The plain arrays a compute device's kernels read of a problem, shared by the device's assembly
// (device_assembly.hpp) and recovery (fem/post/device_recovery.hpp): the cells grouped by element
// type, each node's first equation and the materials' constants.
#include <cstdint>
#include <map>
#include <vector>

#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "kernels/stiffness_assembler.hpp"
#include "kernels/uninitialized_allocator.hpp"

namespace fem {

// The cells of one type, in the arrays a kernels::CellBatch points into.
// Each array is first written by the threads that fill it (millions of cells: no zeroing first).
struct CellsOfType {
  kernels::UninitializedVector<int> node;             // the cells' nodes, cell after cell
  kernels::UninitializedVector<std::int64_t> cell;    // their mesh ids
  kernels::UninitializedVector<int> material;         // their materials
};

std::map<ElementType, CellsOfType> cells_by_type(const Problem& problem);

// The batches a device's kernels read: each type's cells with the shape table at its stiffness
// rule's points (pointing into `by_type` and the tables, which outlive them).
std::vector<kernels::CellBatch> cell_batches(const std::map<ElementType, CellsOfType>& by_type);

// Per mesh node: the equation of its first component.
std::vector<std::int64_t> first_dofs(const DofMap& dofs);

// Per material: the Lame constants of the problem's elastic model (zero for heat) and the conductivity.
struct MaterialConstants {
  std::vector<double> lambda, mu, k;
};
MaterialConstants material_constants(const Problem& problem);

}  // namespace fem

#pragma once
// The unassembled system for solvers that work element by element (the frontal method):
// cells and load-carrying facets, each computed on demand, in a given cell order.
#include <cstdint>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "solvers/linear_system.hpp"

namespace fem {

// Owns what the ElementSystem view points into; keep it alive while the system is used.
struct ElementSystemData {
  std::vector<std::int64_t> order;  // element ids: cells are 0..cells-1, facet k of the loads is cells+k
  ElementSystem system;
};

// cell_order: the cells in the order the solver should take them (empty: mesh order). Each
// load facet is placed right after the first cell, in that order, that holds all its nodes.
// cell_order may hold only some cells (one MPI rank's): a load facet then comes with them when
// its owner (facet_owner_cells) is among them, so that every facet is taken exactly once.
ElementSystemData make_element_system(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                                      const std::vector<std::int64_t>& cell_order = {});

// For each load facet, in the order of problem.loads and then their facets: the lowest-numbered
// cell that holds all its nodes. Throws std::runtime_error when a facet lies on no cell.
std::vector<std::int64_t> facet_owner_cells(const Problem& problem);

}  // namespace fem

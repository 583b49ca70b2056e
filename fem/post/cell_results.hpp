#pragma once
// One parallel sweep over the cells, at their integration points: the gradient quantities
// (strain and stress, or heat flux) extrapolated to each cell's nodes and averaged over the
// cells that meet at each node, and the cells' body load, totalled.
#include <array>
#include <span>
#include <vector>

#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/nodal_array.hpp"

namespace fem {

struct CellResults {
  // (num_nodes x gradient_width), row-major; zero at nodes none of the cells holds.
  NodalArray gradients;
  std::array<double, 3> body_load{};  // per component, summed over the cells and their nodes
};

// Values per node of CellResults::gradients: elasticity 12 (strain xx yy zz xy yz xz,
// engineering shear, then stress in the same order), heat 3 (flux x y z; z = 0 in 2D).
int gradient_width(const Problem& problem);

// Over `cells` alone (empty: all cells). `solution` is in equation order.
CellResults sweep_cells(const Problem& problem, const DofMap& dofs, std::span<const double> solution,
                        std::span<const std::size_t> cells);

// The matrix that takes a cell's values at its stiffness rule's points to its nodes (nodes x
// points, row-major): a least-squares fit with the corner nodes' shape functions.
std::span<const double> nodal_extrapolation(ElementType type);

// CellResults::body_load over every cell (dofs_per_node components of each cell's load vector).
std::array<double, 3> body_load_total(const Problem& problem, int dofs_per_node);

}  // namespace fem

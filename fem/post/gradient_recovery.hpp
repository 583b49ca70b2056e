#pragma once
// Gradient quantities at the nodes: strain and stress (elasticity) or heat flux, computed at
// each cell's integration points, extrapolated to its nodes and averaged over the cells that
// meet at each node.
#include <span>
#include <vector>

#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

// Values per node of averaged_gradients: elasticity 12 (strain xx yy zz xy yz xz, engineering
// shear, then stress in the same order), heat 3 (flux x y z; z = 0 in 2D).
int gradient_width(const Problem& problem);

// (num_nodes x gradient_width), row-major, averaged over `cells` alone (empty: all cells);
// zero at nodes none of them holds. `solution` is in equation order.
std::vector<double> averaged_gradients(const Problem& problem, const DofMap& dofs, std::span<const double> solution,
                                       std::span<const std::size_t> cells);

}  // namespace fem

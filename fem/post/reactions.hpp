#pragma once
// The total applied load and the reactions K u - f at the constrained equations, from the
// element contributions alone (no assembled matrix).
#include <array>
#include <span>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

struct LoadsAndReactions {
  std::array<double, 3> applied_load{};  // summed over the cells' and facets' loads
  std::vector<double> reaction;          // per node: elasticity 3, heat 1; zero off the constraints
};

// Over `cells` (empty: all) and the load facets they own (facet_owner_cells; all of them when
// `cells` is empty): the shares of those elements, which add up over a partition of the cells.
// `solution` is in equation order.
LoadsAndReactions loads_and_reactions(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                                      std::span<const double> solution, std::span<const std::size_t> cells);

}  // namespace fem

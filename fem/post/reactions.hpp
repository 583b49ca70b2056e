#pragma once
// The reactions K u - f at the constrained equations, from the contributions of the elements
// that touch them (no assembled matrix), and the boundary load, totalled on the way.
#include <array>
#include <span>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/nodal_array.hpp"

namespace fem {

struct Reactions {
  NodalArray reaction;                    // per node: elasticity 3, heat 1; zero off the constraints
  std::array<double, 3> boundary_load{};  // summed over the load facets' loads
};

// Over `cells` (empty: all) and the load facets they own (facet_owner_cells; all of them when
// `cells` is empty): those elements' shares, which add up over a partition of the cells.
// `solution` is in equation order.
Reactions reactions(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                    std::span<const double> solution, std::span<const std::size_t> cells);

}  // namespace fem

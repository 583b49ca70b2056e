#pragma once
// The relative residual ||K u - f|| / ||f|| of the constrained system (the one a solver is
// given), computed element by element: what reports the accuracy of solvers that never
// assemble, and checks the others.
#include <span>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

// Rows of constrained equations count as K_dd (u_d - g_d), the right-hand side as lifted:
// the same numbers the assembled path gives.
double element_relative_residual(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                                 std::span<const double> solution);

}  // namespace fem

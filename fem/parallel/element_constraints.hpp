#pragma once
// Dirichlet conditions applied to one element's matrix and load, for assembly straight into a
// distributed matrix where no rank holds the whole one to constrain afterwards.
#include <span>

#include "fem/assembly/element_system.hpp"

namespace fem {

// The symmetric treatment of apply_constraints, one element at a time: summed over the elements
// it gives the very matrix and right-hand side the one-process path solves (rhs_i -= K_ij g_j,
// constrained rows and columns cleared, diagonal kept, rhs_j = K_jj g_j). `prescribed` is indexed
// by the element's dofs: the value, NaN where free.
void constrain_element(ElementContribution& e, std::span<const double> prescribed);

}  // namespace fem

#pragma once
// Boundary loads given by their resultant, turned into the traction that stands for them:
// - a total force F: the uniform traction F / A over the group's area A (2D: length x thickness);
// - a couple M (2D: about z): the traction t(x) = omega x (x - c) about the group's centroid c,
//   with omega = I^-1 M and I = integral of (|r|^2 1 - r r^T), r = x - c, over the group (its
//   second moments of area). Of all linear traction fields with no resultant force and moment M
//   it is the smallest (least squares): the bending stress on a flat end face, the torsion
//   shear about its normal. Having no resultant force, its moment is M about every point.
// Both are integrated with facet_load_rule, as facet_contribution integrates them, so the nodal
// loads add up to F and M to rounding.
#include "fem/physics/problem.hpp"

namespace fem {

// `load` holds the group's facets and, in `vector`, F or M (kind Force or Moment); it becomes a
// Traction. Throws std::invalid_argument saying why for a group of no area, an out-of-plane
// force or in-plane moment in 2D, or a couple that a group on one line cannot carry.
void spread_resultant(const Problem& p, BoundaryLoad& load);

}  // namespace fem

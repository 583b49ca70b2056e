#pragma once
// Shape functions and their reference derivatives tabulated at the points of each element
// type's stiffness quadrature rule: they depend on the reference element alone, so assembly
// looks them up instead of evaluating the polynomials at every point of every element (and the
// device assembly uploads them once).
#include <vector>

#include "fem/elements/element_type.hpp"

namespace fem {

struct ShapeTable {
  int points = 0, nodes = 0, dimension = 0;
  std::vector<double> weight;  // points
  std::vector<double> N;       // N[q * nodes + a]
  std::vector<double> dN;      // dN[(q * nodes + a) * dimension + j] = dN_a/dxi_j at point q
};

// The table of the rule quadrature_rule(shape, stiffness_quadrature_degree(type)); valid for the
// whole program. Throws std::invalid_argument for a point element.
const ShapeTable& stiffness_shape_table(ElementType type);

}  // namespace fem

#pragma once
// Quadrature rules on the reference elements of reference_element.hpp.
#include <array>
#include <vector>

#include "fem/elements/element_type.hpp"

namespace fem {

struct QuadraturePoint {
  std::array<double, 3> xi;  // reference coordinates; unused trailing entries are 0
  double weight;             // the weights of a rule sum to the reference measure
};

// Highest polynomial degree quadrature_rule integrates exactly, for every shape.
inline constexpr int kMaxQuadratureDegree = 15;

// A rule exact for every polynomial of total degree <= `degree` on the shape (for line, quad and
// hex: of degree <= `degree` in each coordinate; tensor Gauss-Legendre). All weights are positive.
// Triangles use symmetric rules up to degree 5 (centroid, 3-point, 6-point, Radon's 7-point),
// tetrahedra up to degree 5 (centroid, 4-point, 14-point), and collapsed Gauss-Legendre
// products above. Throws std::invalid_argument for degree < 0 or > kMaxQuadratureDegree.
// The returned reference stays valid for the whole program.
const std::vector<QuadraturePoint>& quadrature_rule(ElementShape shape, int degree);

// Degree for the stiffness (gradient-gradient) integrals, full integration:
// simplices 2*order; line/quad/hex the per-direction degree 2*order, i.e. 2 Gauss points per
// direction for order 1 and 3 for order 2.
int stiffness_quadrature_degree(ElementType type);

// Degree for mass-type (N N) integrals and loads: simplices 2*order (exact on affine
// elements); line/quad/hex 2*order + 1 per direction, which also covers the linear variation
// of detJ on a distorted element (2 points per direction for order 1, 3 for order 2).
int mass_quadrature_degree(ElementType type);

}  // namespace fem

#pragma once
// The isoparametric map x(xi) = sum_i N_i(xi) x_i of one element, evaluated at a reference
// point. Node coordinates come as 3 doubles per node (x, y, z; z = 0 in 2D), in Gmsh order.
// Allocation-free: these run in the assembly loop.
#include <span>

#include "fem/elements/element_type.hpp"
#include "fem/elements/reference_element.hpp"

namespace fem {

// A cell whose dimension equals the space dimension (a 2D element in 2D, 3D in 3D).
struct VolumePoint {
  double N[kMaxElementNodes];         // shape function values
  double dNdx[kMaxElementNodes * 3];  // dNdx[i*3 + j] = dN_i/dx_j; j >= space_dim is 0
  double x[3];                        // the physical point
  double detJ;                        // signed det(dx/dxi); <= 0: inverted or degenerate element
};

// Throws std::invalid_argument unless space_dim is 2 or 3 and equals the element's dimension,
// and node_coords holds 3*num_nodes values. A non-positive detJ does not throw (the caller
// knows which element it is). A flat element (|detJ| below 1e-12 times the product of the
// tangent lengths |dx/dxi_j|, i.e. roundoff) reports detJ = 0 exactly, with dNdx left 0.
VolumePoint map_volume_point(ElementType type, std::span<const double> node_coords, int space_dim,
                             const double* xi);

// A boundary (facet) element one dimension below the space: a line in the xy-plane in 2D, a
// triangle or quadrilateral in 3D.
struct FacetPoint {
  double N[9];       // shape function values (at most quad9)
  double x[3];       // the physical point
  double measure;    // |dx/dxi| for a line, |dx/du x dx/dv| for a surface
  double normal[3];  // unit normal from the node order: line with tangent t -> (t_y, -t_x, 0);
                     // surface -> (dx/du x dx/dv)/measure. Zero where measure is 0.
};

// Throws std::invalid_argument for a type that is not a line, triangle or quadrilateral, or
// when node_coords does not hold 3*num_nodes values.
FacetPoint map_facet_point(ElementType type, std::span<const double> node_coords, const double* xi);

// Shape quality of a cell: min detJ / max |detJ| over the points of its stiffness quadrature
// rule. 1 for an affine element, small for a badly distorted one, <= 0 when it is inverted or
// degenerate somewhere.
double jacobian_ratio(ElementType type, std::span<const double> node_coords, int space_dim);

}  // namespace fem

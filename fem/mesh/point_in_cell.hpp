#pragma once
// Whether a point lies strictly inside a cell of any type fem supports (linear or quadratic,
// curved or not): the point's reference coordinates found by Newton's method on the cell's
// isoparametric map, then tested against the reference element with a margin, so that a point
// on the cell's boundary (a node it shares with a neighbour) is not inside.
#include <span>

#include "fem/elements/element_type.hpp"

namespace fem {

// node_coords: 3 doubles per node in Gmsh order (z = 0 in 2D); the cell's dimension is the
// space's. Returns false, not an error, where Newton's method does not converge or the cell is
// degenerate: only a point found inside counts.
bool point_strictly_inside(ElementType type, std::span<const double> node_coords, const double* point);

}  // namespace fem

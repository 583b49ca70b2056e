#pragma once
// Reference elements in Gmsh's convention: line [-1,1], quad [-1,1]^2, hex [-1,1]^3,
// triangle {u,v >= 0, u+v <= 1}, tetrahedron {u,v,w >= 0, u+v+w <= 1}; nodes in Gmsh's order.
// Shape functions: Lagrange for line3/quad9/hex27, serendipity for quad8/hex20,
// the standard P1/P2 functions for triangles and tetrahedra.
#include <span>

#include "fem/elements/element_type.hpp"

namespace fem {

// Largest node count of any element type (hex27); sizes the caller's fixed buffers.
inline constexpr int kMaxElementNodes = 27;

// The nodes' reference coordinates: num_nodes * dimension values, node by node, in Gmsh order.
std::span<const double> reference_nodes(ElementType type);

// Length, area or volume of the reference domain of a shape (2, 1/2, 4, 1/6, 8; a point: 1).
double reference_measure(ElementShape shape);

// N[i] = N_i(xi) for the num_nodes shape functions; xi holds `dimension` coordinates.
void shape_functions(ElementType type, const double* xi, double* N);

// dN[i*dim + j] = dN_i/dxi_j, dim = element dimension.
void shape_derivatives(ElementType type, const double* xi, double* dN);

// Both in one pass (what the isoparametric map uses).
void shape_functions_and_derivatives(ElementType type, const double* xi, double* N, double* dN);

// Edges of a 2D cell, faces of a 3D cell, end points of a line.
int num_facets(ElementType type);

// Local node indices of one facet, ordered as an element of type facet_type_of(type):
// vertices first, then edge nodes, then the face centre (quad9). The order makes the facet's
// normal (see map_facet_point) point out of the cell.
std::span<const int> facet_nodes(ElementType type, int facet);

}  // namespace fem

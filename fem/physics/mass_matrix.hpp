#pragma once
// Mass (elasticity) and heat capacity (heat) matrices of one cell: the integral of
// coefficient * N_a N_b over the cell, from the same shape functions and mapping as the
// stiffness, per component for elasticity. Lumped: the row sum for linear elements, HRZ
// (the diagonal scaled to keep the cell's total) for quadratic ones, whose row sums can be
// zero or negative at the corners.
#include <cstddef>

#include "fem/physics/element_matrices.hpp"

namespace fem {

// Per unit volume: the density (elasticity) or the volumetric heat capacity density * specific_heat (heat).
double inertia_coefficient(const PhysicsModel& physics, const IsotropicMaterial& m);

// The cell's mass or capacity matrix into out.matrix (row-major, (nodes * d) squared, node-major
// dofs as the stiffness); out.load is left empty: it has no load.
void cell_mass(const Problem& p, std::size_t cell, MassLumping lumping, ElementBuffers& out);

}  // namespace fem

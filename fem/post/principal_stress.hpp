#pragma once
// Principal stresses: the eigenvalues of the stress tensor, their directions, and the Tresca
// stress (the largest shear times two) that follows from them.
#include <array>
#include <span>
#include <vector>

#include "fem/post/nodal_array.hpp"

namespace fem {

// The principal stresses of s (xx yy zz xy yz xz), largest first.
std::array<double, 3> principal_stresses(const std::array<double, 6>& s);

// The unit directions of the principal stresses (as principal_stresses orders them): a
// right-handed orthonormal triad; where two or three are equal, any orthonormal completion.
std::array<std::array<double, 3>, 3> principal_directions(const std::array<double, 6>& s);

// Per node of `stress` (6 per node: xx yy zz xy yz xz), the three directions one after another
// (9 per node): the `principal_directions` output field.
NodalArray principal_direction_field(std::span<const double> stress);

// sigma_1 - sigma_3 of principal stresses sorted largest first.
inline double tresca(const std::array<double, 3>& principal) { return principal[0] - principal[2]; }

}  // namespace fem

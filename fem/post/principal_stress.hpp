#pragma once
// Principal stresses: the eigenvalues of the stress tensor, and the Tresca stress (the largest
// shear times two) that follows from them.
#include <array>

namespace fem {

// The principal stresses of s (xx yy zz xy yz xz), largest first.
std::array<double, 3> principal_stresses(const std::array<double, 6>& s);

// sigma_1 - sigma_3 of principal stresses sorted largest first.
inline double tresca(const std::array<double, 3>& principal) { return principal[0] - principal[2]; }

}  // namespace fem

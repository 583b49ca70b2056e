#include "fem/post/principal_stress.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

namespace fem {

std::array<double, 3> principal_stresses(const std::array<double, 6>& s) {
  // The closed form for a symmetric 3x3 matrix: the eigenvalues of its deviator B = (A - q I) / p
  // are 2 cos(phi + 2 pi k / 3) with cos(3 phi) = det(B) / 2.
  const double off = s[3] * s[3] + s[4] * s[4] + s[5] * s[5];
  const double q = (s[0] + s[1] + s[2]) / 3;
  const double a = s[0] - q, b = s[1] - q, c = s[2] - q;
  const double p = std::sqrt((a * a + b * b + c * c + 2 * off) / 6);
  std::array<double, 3> e{s[0], s[1], s[2]};
  if (p > 0 && off > 0) {
    const double xy = s[3] / p, yz = s[4] / p, xz = s[5] / p, xx = a / p, yy = b / p, zz = c / p;
    const double det = xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
    const double phi = std::acos(std::clamp(det / 2, -1.0, 1.0)) / 3;
    e[0] = q + 2 * p * std::cos(phi);
    e[2] = q + 2 * p * std::cos(phi + 2 * std::numbers::pi / 3);
    e[1] = 3 * q - e[0] - e[2];
  }
  std::sort(e.begin(), e.end(), std::greater<>());
  return e;
}

}  // namespace fem

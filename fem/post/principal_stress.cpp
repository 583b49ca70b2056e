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

namespace {

using Vector = std::array<double, 3>;

Vector cross(const Vector& a, const Vector& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vector& a, const Vector& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vector scaled(const Vector& a, double f) { return {a[0] * f, a[1] * f, a[2] * f}; }

// The eigenvector of s for the simple eigenvalue `lambda`: the largest cross product of two rows
// of s - lambda I, which are orthogonal to it.
Vector eigenvector(const std::array<double, 6>& s, double lambda) {
  const Vector r[3] = {{s[0] - lambda, s[3], s[5]}, {s[3], s[1] - lambda, s[4]}, {s[5], s[4], s[2] - lambda}};
  Vector best{};
  for (const auto& [i, j] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}})
    if (const Vector c = cross(r[i], r[j]); dot(c, c) > dot(best, best)) best = c;
  return scaled(best, 1 / std::sqrt(dot(best, best)));
}

// A unit vector orthogonal to the unit vector v: the axis least along v, its v part removed.
Vector orthogonal_to(const Vector& v) {
  Vector e{};
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (std::abs(v[k]) < std::abs(v[axis])) axis = k;
  e[axis] = 1;
  const Vector u = {e[0] - v[axis] * v[0], e[1] - v[axis] * v[1], e[2] - v[axis] * v[2]};
  return scaled(u, 1 / std::sqrt(dot(u, u)));
}

}  // namespace

std::array<Vector, 3> principal_directions(const std::array<double, 6>& s) {
  const auto e = principal_stresses(s);
  const double scale = std::max({std::abs(e[0]), std::abs(e[1]), std::abs(e[2])});
  const double tolerance = 1e-10 * scale;
  const double upper_gap = e[0] - e[1], lower_gap = e[1] - e[2];
  if (!(std::max(upper_gap, lower_gap) > tolerance)) return {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};  // isotropic
  // The direction of the best separated eigenvalue first, then the other end's, kept orthogonal.
  std::array<Vector, 3> v;
  const bool upper_first = upper_gap >= lower_gap;
  const int first = upper_first ? 0 : 2, other = upper_first ? 2 : 0;
  v[first] = eigenvector(s, e[first]);
  if ((upper_first ? lower_gap : upper_gap) > tolerance) {
    Vector w = eigenvector(s, e[other]);
    const double along = dot(w, v[first]);
    for (int k = 0; k < 3; ++k) w[k] -= along * v[first][k];
    v[other] = scaled(w, 1 / std::sqrt(dot(w, w)));
  } else {
    v[other] = orthogonal_to(v[first]);
  }
  v[1] = cross(v[2], v[0]);  // right-handed: v0 x v1 = v2
  return v;
}

NodalArray principal_direction_field(std::span<const double> stress) {
  const std::size_t nodes = stress.size() / 6;
  NodalArray field(9 * nodes);
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nodes; ++n) {
    std::array<double, 6> s;
    std::copy(&stress[6 * n], &stress[6 * n] + 6, s.begin());
    const auto v = principal_directions(s);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) field[9 * n + 3 * i + k] = v[i][k];
  }
  return field;
}

}  // namespace fem

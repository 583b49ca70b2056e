#include "fem/physics/material_law.hpp"

#include <algorithm>
#include <cmath>

namespace fem {

int voigt_size(ElasticModel model) {
  if (model == ElasticModel::Axisymmetric) return 4;
  return model == ElasticModel::Solid3D ? 6 : 3;
}

LameConstants lame_constants(ElasticModel model, const IsotropicMaterial& m) {
  const double lambda = m.E * m.nu / ((1 + m.nu) * (1 - 2 * m.nu));
  const double mu = m.E / (2 * (1 + m.nu));
  if (model == ElasticModel::PlaneStress) return {2 * lambda * mu / (lambda + 2 * mu), mu};
  return {lambda, mu};
}

void elasticity_matrix(ElasticModel model, const IsotropicMaterial& m, double* D) {
  const double E = m.E, nu = m.nu;
  const int n = voigt_size(model);
  std::fill(D, D + n * n, 0.0);
  if (model == ElasticModel::PlaneStress) {
    const double c = E / (1 - nu * nu);
    D[0] = c;
    D[1] = c * nu;
    D[3] = c * nu;
    D[4] = c;
    D[8] = c * (1 - nu) / 2;
    return;
  }
  const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu));
  const double mu = E / (2 * (1 + nu));
  const int normal = model == ElasticModel::PlaneStrain ? 2 : 3;
  for (int i = 0; i < normal; ++i) {
    for (int j = 0; j < normal; ++j) D[i * n + j] = lambda;
    D[i * n + i] = lambda + 2 * mu;
  }
  for (int i = normal; i < n; ++i) D[i * n + i] = mu;
}

std::array<double, 6> full_stress(ElasticModel model, const IsotropicMaterial& m, const double* s, double delta_t) {
  if (model == ElasticModel::Solid3D) return {s[0], s[1], s[2], s[3], s[4], s[5]};
  if (model == ElasticModel::Axisymmetric) return {s[0], s[1], s[2], s[3], 0.0, 0.0};
  const double zz = model == ElasticModel::PlaneStrain ? m.nu * (s[0] + s[1]) - m.E * m.alpha * delta_t : 0.0;
  return {s[0], s[1], zz, s[2], 0.0, 0.0};
}

double von_mises(const std::array<double, 6>& s) {
  const double a = s[0] - s[1], b = s[1] - s[2], c = s[2] - s[0];
  return std::sqrt(0.5 * (a * a + b * b + c * c) + 3 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

}  // namespace fem

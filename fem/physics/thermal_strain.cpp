#include "fem/physics/thermal_strain.hpp"

#include "fem/physics/material_law.hpp"

namespace fem {

double temperature_rise(const Problem& p, std::span<const int> nodes, const VolumePoint& vp, const IsotropicMaterial& m) {
  return temperature_rise(p, nodes, vp.N, m);
}

double temperature_rise(const Problem& p, std::span<const int> nodes, const double* N, const IsotropicMaterial& m) {
  if (p.temperature.empty()) return 0.0;
  double t = 0;
  for (std::size_t a = 0; a < nodes.size(); ++a) t += N[a] * p.temperature[static_cast<std::size_t>(nodes[a])];
  return t - m.reference_temperature;
}

std::array<double, 6> thermal_strain(ElasticModel model, const IsotropicMaterial& m, double delta_t) {
  const double e = m.alpha * delta_t;
  switch (model) {
    case ElasticModel::Solid3D:
    case ElasticModel::Axisymmetric:  // rr zz tt: the hoop direction expands too
      return {e, e, e, 0, 0, 0};
    case ElasticModel::PlaneStrain:
      return {(1 + m.nu) * e, (1 + m.nu) * e, 0, 0, 0, 0};
    case ElasticModel::PlaneStress:
      return {e, e, 0, 0, 0, 0};
  }
  return {};
}

void add_thermal_load(const PhysicsModel& physics, const IsotropicMaterial& m, double delta_t, const VolumePoint& vp,
                      double w, int n, std::vector<double>& load) {
  const int nv = voigt_size(physics.model);
  const auto strain = thermal_strain(physics.model, m, delta_t);
  double D[36], s[6] = {};
  elasticity_matrix(physics.model, m, D);
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nv; ++j) s[i] += D[i * nv + j] * strain[j];
  // B^T s node by node: the stress (Voigt) as a tensor applied to the shape function's gradient.
  const int dim = physics.space_dim;
  double S[3][3] = {};
  if (physics.axisymmetric()) {
    S[0][0] = s[0], S[1][1] = s[1], S[0][1] = S[1][0] = s[3];
  } else if (dim == 2) {
    S[0][0] = s[0], S[1][1] = s[1], S[0][1] = S[1][0] = s[2];
  } else {
    S[0][0] = s[0], S[1][1] = s[1], S[2][2] = s[2];
    S[0][1] = S[1][0] = s[3], S[1][2] = S[2][1] = s[4], S[0][2] = S[2][0] = s[5];
  }
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < dim; ++i) {
      double f = 0;
      for (int j = 0; j < dim; ++j) f += S[i][j] * vp.dNdx[3 * a + j];
      if (physics.axisymmetric() && i == 0) f += s[2] * vp.N[a] / vp.x[0];  // the hoop row of B: N_a / r
      load[a * dim + i] += w * f;
    }
}

}  // namespace fem

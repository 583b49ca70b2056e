#pragma once
// Constitutive laws: isotropic linear elasticity in Voigt notation and Fourier conduction.
// Voigt order in 2D: xx yy xy; in 3D: xx yy zz xy yz xz, with engineering shear strains.
// Axisymmetric (x = r, y = z the axis): rr zz tt rz, the 3D order's first four with the hoop
// direction theta in the place of z, so the full stress keeps xx yy zz xy yz xz (zz = hoop).
#include <array>

#include "fem/case/case.hpp"

namespace fem {

struct IsotropicMaterial {
  double E = 0, nu = 0, density = 0;  // elasticity
  double k = 0;                       // conduction
  double alpha = 0, reference_temperature = 0;  // thermal strain alpha (T - reference_temperature)
  double specific_heat = 0;           // heat capacity per unit mass (transient heat)
};

int voigt_size(ElasticModel model);  // 3 in 2D, 4 axisymmetric, 6 in 3D

// Lame constants of the model; plane stress uses lambda* = 2 lambda mu / (lambda + 2 mu), which
// makes the in-plane law the 3D one with the Lame form.
struct LameConstants {
  double lambda = 0, mu = 0;
};
LameConstants lame_constants(ElasticModel model, const IsotropicMaterial& m);

// The elasticity matrix D (voigt_size squared, row-major) of the model.
void elasticity_matrix(ElasticModel model, const IsotropicMaterial& m, double* D);

// The full 3D stress (xx yy zz xy yz xz) from the model's Voigt stress, at a temperature
// `delta_t` above the material's reference: plane stress has zz = 0, plane strain
// zz = nu (xx + yy) - E alpha delta_t (eps_zz = 0 holds the thermal strain too); axisymmetric
// puts the hoop stress in zz.
std::array<double, 6> full_stress(ElasticModel model, const IsotropicMaterial& m, const double* voigt_stress,
                                  double delta_t = 0);

double von_mises(const std::array<double, 6>& s);

}  // namespace fem

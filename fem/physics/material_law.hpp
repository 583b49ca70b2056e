#pragma once
// Constitutive laws: isotropic linear elasticity in Voigt notation and Fourier conduction.
// Voigt order in 2D: xx yy xy; in 3D: xx yy zz xy yz xz, with engineering shear strains.
#include <array>

#include "fem/case/case.hpp"

namespace fem {

struct IsotropicMaterial {
  double E = 0, nu = 0, density = 0;  // elasticity
  double k = 0;                       // conduction
};

int voigt_size(ElasticModel model);  // 3 in 2D, 6 in 3D

// The elasticity matrix D (voigt_size squared, row-major) of the model.
void elasticity_matrix(ElasticModel model, const IsotropicMaterial& m, double* D);

// The full 3D stress (xx yy zz xy yz xz) from the model's Voigt stress and strain:
// plane stress has zz = 0, plane strain zz = nu (xx + yy).
std::array<double, 6> full_stress(ElasticModel model, const IsotropicMaterial& m, const double* voigt_stress);

double von_mises(const std::array<double, 6>& s);

}  // namespace fem

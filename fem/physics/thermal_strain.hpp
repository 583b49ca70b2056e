#pragma once
// Thermal strain: a material free to expand strains by alpha (T - reference_temperature) in
// every direction; held back, it is stressed by sigma = D (eps - eps_th), and the load that
// stands for the expansion is the integral of B^T D eps_th.
#include <array>
#include <span>
#include <vector>

#include "fem/elements/isoparametric.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

// T - reference_temperature at a point of a cell (its nodes, vp.N the shape functions there),
// the nodal temperatures interpolated; 0 when the problem has no temperature load.
double temperature_rise(const Problem& p, std::span<const int> nodes, const VolumePoint& vp, const IsotropicMaterial& m);
// The same from the shape functions at the point (one per node of `nodes`).
double temperature_rise(const Problem& p, std::span<const int> nodes, const double* N, const IsotropicMaterial& m);

// The model's Voigt thermal strain (voigt_size entries, then zeros): alpha dT on the normal
// components; plane strain has (1 + nu) alpha dT in the plane, as eps_zz = 0 holds the
// out-of-plane expansion back and pushes it into the plane.
std::array<double, 6> thermal_strain(ElasticModel model, const IsotropicMaterial& m, double delta_t);

// Adds w B^T D eps_th of one integration point to a cell's load (n nodes x dofs, node-major).
void add_thermal_load(const PhysicsModel& physics, const IsotropicMaterial& m, double delta_t, const VolumePoint& vp,
                      double w, int n, std::vector<double>& load);

}  // namespace fem

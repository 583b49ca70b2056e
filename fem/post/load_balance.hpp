#pragma once
// What the reactions answer to: the applied loads' total force and moment, each fixed group's
// reaction force and moment, and how closely the two balance. Elasticity only; thermal strain
// loads nothing here, as it is in equilibrium by itself.
#include <array>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "fem/physics/problem.hpp"

namespace fem {

struct Resultant {
  std::array<double, 3> force{};
  std::array<double, 3> moment{};  // about LoadBalance::about
};

struct LoadBalance {
  std::array<double, 3> about{};
  Resultant applied;                        // tractions, pressures, forces, couples and gravity
  Resultant reactions;                      // every constrained node once
  std::map<std::string, Resultant> groups;  // per Dirichlet group (a node in two groups counts in both)
  // (|F_r + F_a| + |M_r + M_a| / L) / (|F_a| + |M_a| / L), L the mesh's bounding-box diagonal;
  // where nothing is applied (thermal strain alone), over the groups' reactions summed instead.
  double balance = 0;
};

// Adds force f applied at x to r, its moment about `about`.
void add_force(Resultant& r, const double* x, const double* f, const std::array<double, 3>& about);

// LoadBalance::balance of these resultants, `length` the mesh's bounding-box diagonal.
double balance_measure(const Resultant& applied, const Resultant& reactions,
                       const std::map<std::string, Resultant>& groups, double length);

// `reaction` is NodalResults::reaction (3 per node).
LoadBalance load_balance(const Problem& problem, std::span<const double> reaction, const std::array<double, 3>& about);

}  // namespace fem

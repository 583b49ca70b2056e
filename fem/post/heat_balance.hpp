#pragma once
// The heat a steady heat run balances: what enters through sources, fluxes and convection (at
// the solved temperatures: h (T_inf - T)), what the fixed temperatures carry (their reactions),
// per group, and how closely the two cancel.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "fem/physics/problem.hpp"

namespace fem {

struct HeatBalance {
  double applied = 0;                     // W (per unit thickness nowhere: 2D carries it): into the body
  double reactions = 0;                   // W at the fixed temperatures, every constrained node once
  std::map<std::string, double> groups;   // per temperature group
  double balance = 0;                     // |reactions + applied| / |applied| (over the groups' sum when nothing enters)
};

// `temperature` and `reaction` per mesh node (NodalResults::temperature, ::reaction); `source_heat`
// the sources' heat over every cell (NodalResults::body_load, which the cells' sweep totals).
HeatBalance heat_balance(const Problem& problem, std::span<const double> temperature, std::span<const double> reaction,
                         double source_heat);

}  // namespace fem

#include "solvers/frontal/frontal_plan.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "solvers/linear_solver.hpp"

namespace fem::frontal {

double elimination_flops(std::int64_t front, std::int64_t pivots) {
  const double p = static_cast<double>(pivots);
  const double rest = static_cast<double>(front - pivots + 1);  // + 1: the load row rides along
  return p * p * p / 3 + rest * p * p + rest * rest * p;
}

FrontalPlan make_frontal_plan(const ElementSystem& system, std::int64_t min_pivots) {
  if (min_pivots < 1) throw std::invalid_argument("frontal solver: the pivot block must be at least 1");
  const std::int64_t n = system.equations;
  if (static_cast<std::int64_t>(system.prescribed.size()) != n)
    throw std::invalid_argument("frontal solver: " + std::to_string(system.prescribed.size()) +
                                " prescribed values for " + std::to_string(n) + " equations");
  const auto positions = static_cast<std::int64_t>(system.order.size());
  FrontalPlan plan;
  plan.last_position.assign(n, -1);
  std::vector<std::int64_t> first_position(n, -1);
  ElementContribution element;
  for (std::int64_t k = 0; k < positions; ++k) {
    system.element(system.order[k], element);
    for (const auto v : element.dofs) {
      if (v < 0 || v >= n)
        throw std::invalid_argument("frontal solver: element " + std::to_string(system.order[k]) +
                                    " names equation " + std::to_string(v) + " of a system of " +
                                    std::to_string(n));
      if (!std::isnan(system.prescribed[v])) continue;
      if (first_position[v] < 0) first_position[v] = k;
      plan.last_position[v] = k;
    }
  }
  std::vector<std::int64_t> entering(positions, 0), leaving(positions, 0);
  for (std::int64_t v = 0; v < n; ++v) {
    if (!std::isnan(system.prescribed[v])) continue;
    if (first_position[v] < 0)
      throw SolveFailure("frontal solver: equation " + std::to_string(v) +
                             " is free but lies in no element (its stiffness is zero)",
                         v);
    ++entering[first_position[v]];
    ++leaving[plan.last_position[v]];
    ++plan.free_equations;
  }

  std::int64_t active = 0, waiting = 0;
  double sum_squares = 0;
  for (std::int64_t k = 0; k < positions; ++k) {
    active += entering[k];
    waiting += leaving[k];
    sum_squares += static_cast<double>(active) * static_cast<double>(active);
    if (active > plan.front_max) plan.front_max = active;
    if (waiting >= min_pivots || (k == positions - 1 && waiting > 0)) {
      plan.step_end.push_back(k);
      plan.step_front.push_back(active);
      plan.step_pivots.push_back(waiting);
      plan.factor_values += (active + 1) * waiting;
      plan.flops += elimination_flops(active, waiting);
      active -= waiting;
      waiting = 0;
    }
  }
  plan.front_rms = positions > 0 ? std::sqrt(sum_squares / static_cast<double>(positions)) : 0.0;
  return plan;
}

}  // namespace fem::frontal

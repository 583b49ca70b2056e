#pragma once
// The loads and prescribed temperatures of a transient heat run as functions of time. A value
// given by a table of (t, value) pairs enters linearly (a flux, convection's T_inf and a source
// scale a load vector; a prescribed temperature holds its group's equations), so
//   f(t) = f_constant + sum_j v_j(t) f_j,
// with f_j entry j's load at value 1, assembled once: a step evaluates tables, never assembles.
#include <cstdint>
#include <span>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"

namespace fem {

class HeatHistory {
 public:
  // Throws CaseError when two groups prescribe a node different temperatures at some time (the
  // tables are piecewise linear: agreeing at every time of every table, they agree throughout).
  HeatHistory(const Problem& problem, const DofMap& dofs);

  // Which equations are held, with their values at t = 0.
  const Constraints& constraints() const { return constraints_; }
  // theta f(t1) + (1 - theta) f(t0): the load of a theta-method step from t0 to t1.
  void load(double t0, double t1, double theta, std::span<double> f) const;
  // The prescribed temperatures at t on the held equations; the free ones are left as they are.
  void prescribed(double t, std::span<double> values) const;
  // The tables it follows, loads first, then prescribed temperatures.
  std::vector<const TimeTable*> tables() const;

 private:
  struct TabledLoad {
    TimeTable table;
    std::vector<double> unit;  // the load at value 1
  };
  struct TabledTemperature {
    TimeTable table;
    std::vector<std::int64_t> equations;
  };
  Constraints constraints_;
  std::vector<double> constant_load_;
  std::vector<TabledLoad> loads_;
  std::vector<TabledTemperature> temperatures_;
};

}  // namespace fem

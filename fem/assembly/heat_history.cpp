#include "fem/assembly/heat_history.hpp"

#include <algorithm>
#include <cstdio>

#include "fem/assembly/assembler.hpp"

namespace fem {
namespace {

// `problem`'s mesh, physics and materials with no load and no prescribed value.
Problem unloaded(const Problem& problem) {
  Problem p;
  p.mesh = problem.mesh;
  p.physics = problem.physics;
  p.materials = problem.materials;
  p.material_names = problem.material_names;
  p.cell_material = problem.cell_material;
  return p;
}

// Every condition at time t: a prescribed temperature from its table.
Problem prescribed_at(const Problem& problem, double t) {
  Problem p = unloaded(problem);
  p.dirichlet = problem.dirichlet;
  for (auto& d : p.dirichlet)
    if (d.table) d.value[0] = d.table->value_at(t);
  return p;
}

// Two groups holding one node must agree at every time: it suffices at every time of every
// table, the tables being linear between their times and constant beyond them.
void check_agreement(const Problem& problem, const DofMap& dofs) {
  std::vector<double> times;
  for (const auto& d : problem.dirichlet)
    if (d.table) times.insert(times.end(), d.table->times.begin(), d.table->times.end());
  for (double t : times) {
    try {
      collect_constraints(prescribed_at(problem, t), dofs);
    } catch (const CaseError& e) {
      char when[48];
      std::snprintf(when, sizeof when, " at t = %g s", t);
      throw CaseError(e.what() + std::string(when));
    }
  }
}

}  // namespace

HeatHistory::HeatHistory(const Problem& problem, const DofMap& dofs) {
  check_agreement(problem, dofs);
  constraints_ = collect_constraints(problem, dofs);
  Problem constant = problem;
  constant.loads.clear();
  for (const auto& load : problem.loads) {
    if (!load.table) {
      constant.loads.push_back(load);
      continue;
    }
    Problem unit = unloaded(problem);
    unit.loads.push_back(load);
    (load.kind == BoundaryLoad::Kind::Convection ? unit.loads.back().T_inf : unit.loads.back().value) = 1;
    loads_.push_back({*load.table, assemble_loads(unit, dofs)});
  }
  if (problem.source_table) {
    constant.source = 0;
    Problem unit = unloaded(problem);
    unit.source = 1;
    loads_.push_back({*problem.source_table, assemble_loads(unit, dofs)});
  }
  constant_load_ = assemble_loads(constant, dofs);
  for (const auto& d : problem.dirichlet) {
    if (!d.table) continue;
    TabledTemperature held{*d.table, {}};
    for (int node : d.nodes) held.equations.push_back(dofs.dof(node, 0));
    temperatures_.push_back(std::move(held));
  }
}

void HeatHistory::load(double t0, double t1, double theta, std::span<double> f) const {
  std::vector<double> weights;
  for (const auto& l : loads_) weights.push_back(theta * l.table.value_at(t1) + (1 - theta) * l.table.value_at(t0));
  const auto n = static_cast<std::int64_t>(f.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = constant_load_[i];
    for (std::size_t j = 0; j < loads_.size(); ++j) sum += weights[j] * loads_[j].unit[i];
    f[i] = sum;
  }
}

void HeatHistory::prescribed(double t, std::span<double> values) const {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (constraints_.is_fixed(static_cast<std::int64_t>(i))) values[i] = constraints_.prescribed[i];
  for (const auto& held : temperatures_) {
    const double v = held.table.value_at(t);
    for (auto i : held.equations) values[i] = v;
  }
}

std::vector<const TimeTable*> HeatHistory::tables() const {
  std::vector<const TimeTable*> out;
  for (const auto& l : loads_) out.push_back(&l.table);
  for (const auto& held : temperatures_) out.push_back(&held.table);
  return out;
}

}  // namespace fem

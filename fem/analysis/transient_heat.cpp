#include "fem/analysis/transient_heat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "support/stopwatch.hpp"

namespace fem {
namespace {

// sum_j coefficient(k) x_j over row i's entries k.
template <class Coefficient>
double row_product(const CsrMatrix& pattern, std::int64_t i, std::span<const double> x, Coefficient&& coefficient) {
  double sum = 0;
  for (std::int64_t k = pattern.row_ptr[i]; k < pattern.row_ptr[i + 1]; ++k) sum += coefficient(k) * x[pattern.col[k]];
  return sum;
}

double relative_residual(const CsrMatrix& a, std::span<const double> x, std::span<const double> b) {
  double r2 = 0, b2 = 0;
#pragma omp parallel for reduction(+ : r2, b2) schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const double r = row_product(a, i, x, [&](std::int64_t k) { return a.val[k]; }) - b[i];
    r2 += r * r;
    b2 += b[i] * b[i];
  }
  return b2 > 0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
}

}  // namespace

TransientReport solve_transient(const CsrMatrix& stiffness, const CsrMatrix& capacity, std::span<const double> load,
                                const Constraints& constraints, const TransientSettings& settings,
                                LinearSolver& solver, const NodeLayout& nodes,
                                const std::function<void(const TransientState&)>& output) {
  const std::int64_t n = stiffness.rows;
  if (capacity.rows != n || capacity.nnz() != stiffness.nnz() || static_cast<std::int64_t>(load.size()) != n ||
      static_cast<std::int64_t>(constraints.prescribed.size()) != n)
    throw std::invalid_argument("solve_transient: K, C, f and the constraints differ in size");
  const double dt = settings.time_step, theta = settings.theta, t0 = settings.initial_temperature;
  const auto& kv = stiffness.val;
  const auto& cv = capacity.val;

  // A = C/dt + theta K, constrained; `lift` is what its constraints move to the right-hand side
  // (-A_ij g_j on free rows, A_jj g_j on fixed ones): the same every step, the values being constant.
  CsrMatrix a = stiffness;
  for (std::int64_t k = 0; k < a.nnz(); ++k) a.val[k] = cv[k] / dt + theta * kv[k];
  std::vector<double> lift(n, 0.0);
  apply_constraints(a, lift, constraints);
  std::vector<std::int64_t> fixed;
  for (std::int64_t i = 0; i < n; ++i)
    if (constraints.is_fixed(i)) fixed.push_back(i);
  // Column sums (= row sums: K and C are symmetric) turn the budget's totals into dot products.
  std::vector<double> k_sums(n, 0.0), c_sums(n, 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = stiffness.row_ptr[i]; k < stiffness.row_ptr[i + 1]; ++k) {
      k_sums[i] += kv[k];
      c_sums[i] += cv[k];
    }
  double load_total = 0;
  for (double f : load) load_total += f;

  TransientReport report;
  const Stopwatch preparing;
  const auto prepared = solver.prepare(a, nodes);
  report.setup = prepared->setup();
  report.setup.time_setup_s = preparing.seconds();
  report.reuses_preparation = prepared->reuses_preparation();

  std::vector<double> t(n, t0), next(n), rhs(n);
  HeatBudget budget;
  output({0, 0.0, t, budget});
  const Stopwatch stepping;
  double outputs_s = 0;  // the caller's time, not the steps'
  for (int step = 1; step <= settings.steps; ++step) {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      rhs[i] = constraints.is_fixed(i)
                   ? lift[i]
                   : load[i] + lift[i] +
                         row_product(stiffness, i, t, [&](std::int64_t k) { return cv[k] / dt - (1 - theta) * kv[k]; });
    for (std::int64_t i = 0; i < n; ++i) next[i] = constraints.is_fixed(i) ? constraints.prescribed[i] : t[i];
    const SolveReport solved = prepared->solve(rhs, next, 1);
    report.time_solves_s += solved.time_solve_s;
    report.max_iterations = std::max(report.max_iterations, solved.iterations);
    if (report.unconverged.empty() && !solved.unconverged.empty())
      report.unconverged = "step " + std::to_string(step) + ": " + solved.unconverged;
    report.max_residual = std::max(report.max_residual, relative_residual(a, next, rhs));

    // The heat budget of the step, from the unconstrained rows: what the prescribed temperatures
    // supplied (their reactions) and what the loads and convection did.
    double in_fixed = 0, kt = 0, stored = 0;
    for (std::int64_t i : fixed)
      in_fixed += row_product(capacity, i, next, [&](std::int64_t k) { return cv[k] / dt; }) -
                  row_product(capacity, i, t, [&](std::int64_t k) { return cv[k] / dt; }) +
                  row_product(stiffness, i, next, [&](std::int64_t k) { return theta * kv[k]; }) +
                  row_product(stiffness, i, t, [&](std::int64_t k) { return (1 - theta) * kv[k]; }) - load[i];
#pragma omp parallel for reduction(+ : kt, stored) schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      kt += k_sums[i] * (theta * next[i] + (1 - theta) * t[i]);
      stored += c_sums[i] * (next[i] - t0);
    }
    budget.in_fixed += dt * in_fixed;
    budget.in_loads += dt * (load_total - kt);
    budget.stored = stored;
    t.swap(next);
    if (step % settings.output_every == 0 || step == settings.steps) {
      const Stopwatch writing;
      output({step, step * dt, t, budget});
      outputs_s += writing.seconds();
    }
  }
  report.steps = settings.steps;
  report.time_steps_s = stepping.seconds() - outputs_s;
  return report;
}

}  // namespace fem

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

// A = C/dt + theta K constrained, and what constraining it took out: the held columns of the free
// rows, which lift each step's prescribed values (-A_ij g_j), and the held rows' diagonals (A_jj g_j).
struct StepMatrix {
  CsrMatrix a;
  CsrMatrix held_columns;
  std::vector<double> held_diagonal;  // 0 on free rows
};

StepMatrix step_matrix(const CsrMatrix& stiffness, const CsrMatrix& capacity, const Constraints& constraints,
                       double dt, double theta) {
  StepMatrix m;
  m.a = stiffness;
  for (std::int64_t k = 0; k < m.a.nnz(); ++k) m.a.val[k] = capacity.val[k] / dt + theta * stiffness.val[k];
  const std::int64_t n = m.a.rows;
  m.held_columns.rows = n;
  m.held_columns.row_ptr.assign(n + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    if (!constraints.is_fixed(i))
      for (std::int64_t k = m.a.row_ptr[i]; k < m.a.row_ptr[i + 1]; ++k)
        if (constraints.is_fixed(m.a.col[k])) {
          m.held_columns.col.push_back(m.a.col[k]);
          m.held_columns.val.push_back(m.a.val[k]);
        }
    m.held_columns.row_ptr[i + 1] = static_cast<std::int64_t>(m.held_columns.col.size());
  }
  std::vector<double> unused(n, 0.0);
  apply_constraints(m.a, unused, constraints);
  m.held_diagonal.assign(n, 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    if (constraints.is_fixed(i))
      for (std::int64_t k = m.a.row_ptr[i]; k < m.a.row_ptr[i + 1]; ++k)
        if (m.a.col[k] == i) m.held_diagonal[i] = m.a.val[k];
  return m;
}

// What a step needs beyond A: K, C and the theta-weighted load f of the step.
struct StepTerms {
  const CsrMatrix& stiffness;
  const CsrMatrix& capacity;
  const StepMatrix& matrix;
  const Constraints& constraints;
  double dt, theta;
};

// Free rows: f + (C/dt - (1 - theta) K) T_n - A_ij g_j over the held j; held rows: A_jj g_j.
void step_rhs(const StepTerms& s, std::span<const double> load, std::span<const double> t,
              std::span<const double> held, std::span<double> rhs) {
  const auto& kv = s.stiffness.val;
  const auto& cv = s.capacity.val;
  const CsrMatrix& lift = s.matrix.held_columns;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < s.stiffness.rows; ++i)
    rhs[i] = s.constraints.is_fixed(i)
                 ? s.matrix.held_diagonal[i] * held[i]
                 : load[i] - row_product(lift, i, held, [&](std::int64_t k) { return lift.val[k]; }) +
                       row_product(s.stiffness, i, t, [&](std::int64_t k) { return cv[k] / s.dt - (1 - s.theta) * kv[k]; });
}

// The heat budget's totals as dot products: K's and C's column sums (= row sums: both symmetric).
struct BudgetSums {
  std::vector<double> k_sums, c_sums;
  std::vector<std::int64_t> fixed;
};

BudgetSums budget_sums(const StepTerms& s) {
  const std::int64_t n = s.stiffness.rows;
  BudgetSums b{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0), {}};
  for (std::int64_t i = 0; i < n; ++i) {
    if (s.constraints.is_fixed(i)) b.fixed.push_back(i);
    for (std::int64_t k = s.stiffness.row_ptr[i]; k < s.stiffness.row_ptr[i + 1]; ++k) {
      b.k_sums[i] += s.stiffness.val[k];
      b.c_sums[i] += s.capacity.val[k];
    }
  }
  return b;
}

// Adds a step from T_n (`t`) to T_{n+1} (`next`) under load f to the budget, from the
// unconstrained rows: what the prescribed temperatures supplied (their reactions) and what the
// loads and convection did.
void add_step(const StepTerms& s, const BudgetSums& sums, std::span<const double> load, std::span<const double> t,
              std::span<const double> next, double t0, HeatBudget& budget) {
  const auto& kv = s.stiffness.val;
  const auto& cv = s.capacity.val;
  const double dt = s.dt, theta = s.theta;
  double in_fixed = 0, kt = 0, stored = 0, load_total = 0;
  for (std::int64_t i : sums.fixed)
    in_fixed += row_product(s.capacity, i, next, [&](std::int64_t k) { return cv[k] / dt; }) -
                row_product(s.capacity, i, t, [&](std::int64_t k) { return cv[k] / dt; }) +
                row_product(s.stiffness, i, next, [&](std::int64_t k) { return theta * kv[k]; }) +
                row_product(s.stiffness, i, t, [&](std::int64_t k) { return (1 - theta) * kv[k]; }) - load[i];
  const auto n = static_cast<std::int64_t>(t.size());
#pragma omp parallel for reduction(+ : kt, stored, load_total) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    kt += sums.k_sums[i] * (theta * next[i] + (1 - theta) * t[i]);
    stored += sums.c_sums[i] * (next[i] - t0);
    load_total += load[i];
  }
  budget.in_fixed += dt * in_fixed;
  budget.in_loads += dt * (load_total - kt);
  budget.stored = stored;
}

}  // namespace

TransientReport solve_transient(const CsrMatrix& stiffness, const CsrMatrix& capacity, const HeatHistory& history,
                                const TransientSettings& settings, LinearSolver& solver, const NodeLayout& nodes,
                                const std::function<void(const TransientState&)>& output) {
  const std::int64_t n = stiffness.rows;
  const Constraints& constraints = history.constraints();
  if (capacity.rows != n || capacity.nnz() != stiffness.nnz() || static_cast<std::int64_t>(constraints.prescribed.size()) != n)
    throw std::invalid_argument("solve_transient: K, C and the loads differ in size");
  const double dt = settings.time_step, theta = settings.theta, t0 = settings.initial_temperature;
  const StepMatrix matrix = step_matrix(stiffness, capacity, constraints, dt, theta);
  const StepTerms terms{stiffness, capacity, matrix, constraints, dt, theta};
  const BudgetSums sums = budget_sums(terms);

  TransientReport report;
  const Stopwatch preparing;
  const auto prepared = solver.prepare(matrix.a, nodes);
  report.setup = prepared->setup();
  report.setup.time_setup_s = preparing.seconds();
  report.reuses_preparation = prepared->reuses_preparation();

  std::vector<double> t(n, t0), next(n), rhs(n), load(n), held(constraints.prescribed);
  HeatBudget budget;
  output({0, 0.0, t, budget});
  const Stopwatch stepping;
  double outputs_s = 0;  // the caller's time, not the steps'
  for (int step = 1; step <= settings.steps; ++step) {
    const double from = (step - 1) * dt, to = step * dt;
    history.load(from, to, theta, load);
    history.prescribed(to, held);
    step_rhs(terms, load, t, held, rhs);
    for (std::int64_t i = 0; i < n; ++i) next[i] = constraints.is_fixed(i) ? held[i] : t[i];
    const SolveReport solved = prepared->solve(rhs, next, 1);
    report.time_solves_s += solved.time_solve_s;
    report.max_iterations = std::max(report.max_iterations, solved.iterations);
    if (report.unconverged.empty() && !solved.unconverged.empty())
      report.unconverged = "step " + std::to_string(step) + ": " + solved.unconverged;
    report.max_residual = std::max(report.max_residual, relative_residual(matrix.a, next, rhs));
    add_step(terms, sums, load, t, next, t0, budget);
    t.swap(next);
    if (step % settings.output_every == 0 || step == settings.steps) {
      const Stopwatch writing;
      output({step, to, t, budget});
      outputs_s += writing.seconds();
    }
  }
  report.steps = settings.steps;
  report.time_steps_s = stepping.seconds() - outputs_s;
  return report;
}

}  // namespace fem

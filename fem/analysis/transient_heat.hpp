#pragma once
// Transient heat conduction by the theta-method: C dT/dt + K T = f stepped as
//   (C/dt + theta K) T_{n+1} = (C/dt - (1 - theta) K) T_n + f,
// with A = C/dt + theta K prepared once by the case's linear solver and one prepared solve per
// step (an iterative solver starts from T_n). The loads may follow time (HeatHistory): a step
// from t_n to t_{n+1} takes f = theta f(t_{n+1}) + (1 - theta) f(t_n), and its prescribed
// temperatures are their values at t_{n+1}, lifted by A's columns kept aside, so A is not
// touched again. They hold from the first step on (T_0 is the initial temperature everywhere, so
// the first step's jump at those nodes enters through C as heat supplied by them).
#include <functional>
#include <span>
#include <vector>

#include "fem/assembly/heat_history.hpp"
#include "kernels/csr_matrix.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

struct TransientSettings {
  double time_step = 0, theta = 1, initial_temperature = 0;
  int steps = 0;
  int output_every = 1;  // the initial state and the last step are always given too
};

// The heat budget up to a step, all in J (per unit thickness in 2D): stored = integral of
// rho c (T - T_0) = C (T - T_0) summed, which the theta-method keeps equal to the heat in through
// the prescribed temperatures (the reactions C dT/dt + K T - f on their rows, over time) plus the
// rest (sources, fluxes, convection: the sum of f - K T over time) to rounding and the solver's tolerance.
struct HeatBudget {
  double stored = 0, in_fixed = 0, in_loads = 0;
};

struct TransientState {
  int step = 0;
  double time = 0;
  std::span<const double> temperature;  // equation order
  HeatBudget budget;
};

struct TransientReport {
  SolveReport setup;             // the preparation of A: time_setup_s, memory, figures
  bool reuses_preparation = true;
  double time_steps_s = 0;       // every step: right-hand side, solve, residual, budget (not `output`)
  double time_solves_s = 0;      // the prepared solves alone
  int steps = 0;
  int max_iterations = 0;        // iterative: the most any step took
  double max_residual = 0;       // the largest ||A T - b|| / ||b|| over the steps, recomputed
  std::string unconverged;       // a step's solver stopped short of its tolerance: why (the first)
};

// Steps `settings.steps` times from the initial temperature. `stiffness` (K, convection
// included) and `capacity` (C) are unconstrained on one pattern; `history` gives f (no lifting)
// and the prescribed temperatures over time.
// `output` is called with the initial state, every output_every-th step and the last.
// Throws SolveFailure when a step cannot be solved.
TransientReport solve_transient(const CsrMatrix& stiffness, const CsrMatrix& capacity, const HeatHistory& history,
                                const TransientSettings& settings,
                                LinearSolver& solver, const NodeLayout& nodes,
                                const std::function<void(const TransientState&)>& output);

}  // namespace fem

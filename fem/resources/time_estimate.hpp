#pragma once
// How long a solver will take on a system of known size, before it is assembled: the work of
// its footprint in the solver table (a factor's flops, a Krylov method's iterations and the bytes
// each moves) at the rates this machine reaches now. `fem check` prints it for every method, and
// `solver.method: auto` (method_choice.hpp) compares a direct method's with AMG-CG's.
#include <string>

#include "fem/resources/memory_estimate.hpp"
#include "solvers/solver_choices.hpp"

namespace fem::resources {

// What the machine does now, with every thread the solvers use: DGEMM flops, STREAM triad
// bytes per second and the cost of an empty parallel region (large when other processes hold
// the cores). Measured once per process (about 0.1 s), on first use.
struct MachineRates {
  double flops_per_second = 0;
  double bytes_per_second = 0;
  double parallel_region_s = 0;
  const char* source = "measured now";  // where the figures come from, for messages
};
const MachineRates& machine_rates();

// What is solved: with which preconditioner (iterative methods) and tolerance, how many times.
struct SolveWork {
  Preconditioner preconditioner = Preconditioner::Amg;
  double tolerance = 1e-10;
  int right_hand_sides = 1;
};

struct TimeEstimate {
  double prepare_s = 0;     // factorisation, or a preconditioner's set-up
  double per_solve_s = 0;   // each right-hand side: substitutions, or the iterations
  double flops = 0;         // a direct method's factorisation work (0 for iterative methods)
  double iterations = 0;    // an iterative method's expected count (0 for direct methods)
  std::string basis;        // what it counts, for `fem check`
  double seconds(int right_hand_sides) const { return prepare_s + right_hand_sides * per_solve_s; }
};
TimeEstimate estimate_time(SolverMethodId method, const SystemSize& system, const SolveWork& work,
                           const MachineRates& rates);

}  // namespace fem::resources

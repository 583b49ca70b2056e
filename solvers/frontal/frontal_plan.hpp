#pragma once
// The prefront pass of the frontal method: one sweep over the element order that finds when
// each free equation enters the front and when it is fully summed (its last element), and
// from that where the elimination steps fall, how large the front grows and how much factor
// storage and arithmetic the elimination will need. Nothing numeric is decided here.
#include <cstdint>
#include <vector>

#include "solvers/linear_system.hpp"

namespace fem::frontal {

// Equations whose last element has been assembled are eliminated together once at least
// `min_pivots` of them wait (or at the last element): a rank-k update instead of k rank-1 ones.
struct FrontalPlan {
  std::vector<std::int64_t> last_position;  // per equation: position in the order of its last element, -1 if none
  std::vector<std::int64_t> step_end;       // per elimination step: position of its last element
  std::vector<std::int64_t> step_front;     // per step: equations in the front when it eliminates
  std::vector<std::int64_t> step_pivots;    // per step: equations it eliminates
  std::int64_t free_equations = 0;
  std::int64_t front_max = 0;    // largest front, in equations
  double front_rms = 0;          // root mean square of the front after each element
  std::int64_t factor_values = 0;  // doubles the factor store will hold
  double flops = 0;              // of the eliminations (Cholesky, triangular solve, update)
};

// Reads every element once (their dofs; the matrices are computed and dropped). Throws
// std::invalid_argument for an equation number outside the system, and SolveFailure naming
// the equation for a free equation that no element holds (its matrix row would be zero).
FrontalPlan make_frontal_plan(const ElementSystem& system, std::int64_t min_pivots);

// Flops of eliminating `pivots` equations from a front of `front` equations plus the load row.
double elimination_flops(std::int64_t front, std::int64_t pivots);

}  // namespace fem::frontal

#pragma once
// The solver settings of a case (its 'solver' section) as the solver registry takes them.
#include "fem/case/case.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

SolverOptions solver_options(const SolverSpec& spec);

}  // namespace fem

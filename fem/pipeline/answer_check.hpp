#pragma once
// Every answer is checked before it is written as one: the relative residual ||K u - f|| / ||f||
// that fem recomputes, whatever solver (ours or PETSc with the user's options) produced u.
#include "solvers/linear_solver.hpp"

namespace fem {

// What the recomputed residual may reach for `options`: an iterative method stops on its own
// estimate, which rounding lets drift from the true residual, so it gets ten times its
// tolerance; a direct solve of a well-posed system reaches 1e-12 and better, so 1e-6 means a
// singular or nearly singular system.
double accepted_residual(const SolverOptions& options);

// Throws SolveFailure saying what was reached, what was asked and what to do, when `residual`
// is above accepted_residual(options) or not a number.
void require_accepted_residual(const SolverOptions& options, double residual);

}  // namespace fem

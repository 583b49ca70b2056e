#pragma once
// Every answer is checked before it is written as one: the relative residual ||K u - f|| / ||f||
// that fem recomputes, whatever solver (ours or PETSc with the user's options) produced u.
// An answer within the tolerance is converged; one short of it but still usable (an iterative
// solve stopped at its iteration limit, or at the accuracy double precision allows on this
// system) is written and marked not converged, with the reason; anything worse is refused.
#include <string>

#include "solvers/linear_solver.hpp"

namespace fem {

// What the recomputed residual may reach and still count as converged: an iterative method stops
// on its own estimate, which rounding lets drift from the true residual, so it gets ten times its
// tolerance; a direct solve of a well-posed system reaches 1e-12 and better.
double accepted_residual(const SolverOptions& options);

// Above this recomputed relative residual no answer is written: it is not a solution of the
// equations to any engineering accuracy (and from a direct solver it means a singular system).
inline constexpr double kUsableResidual = 1e-6;

struct AnswerVerdict {
  bool converged = true;
  std::string reason;  // when not converged: why, and what to do
};

// The verdict on `residual` (recomputed) for a solve with `options` that left `report`. Throws
// SolveFailure saying what was reached, what was asked and what to do when the answer is not
// usable, or not converged and `require_convergence` (solver.require_convergence) is set.
AnswerVerdict judge_answer(const SolverOptions& options, const SolveReport& report, double residual,
                           bool require_convergence);

}  // namespace fem

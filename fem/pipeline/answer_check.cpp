#include "fem/pipeline/answer_check.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "solvers/solver_table.hpp"

namespace fem {
namespace {

constexpr double kIterativeDrift = 10;

bool is_iterative(SolverMethodId method) {
  const SolverMethod* row = find_solver_method(method);
  return row && row->kind == SolverKind::Iterative;
}

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

}  // namespace

double accepted_residual(const SolverOptions& options) {
  return is_iterative(options.method) ? kIterativeDrift * options.tolerance : kUsableResidual;
}

AnswerVerdict judge_answer(const SolverOptions& options, const SolveReport& report, double residual,
                           bool require_convergence) {
  const bool iterative = is_iterative(options.method);
  if (!iterative) {
    if (residual <= kUsableResidual) return {};
    throw SolveFailure(std::string(name_of(options.method)) + " returned a solution whose relative residual is " + scientific(residual) +
                       ": the system is singular or nearly so (is the body held against every rigid motion, rotations "
                       "included?)");
  }
  if (residual <= accepted_residual(options) && report.unconverged.empty()) return {};

  AnswerVerdict verdict{false, report.unconverged};
  // Near the tolerance, rounding is why; far above a usable answer, the method stopped before
  // solving (a preconditioner applied once, a loose stopping test of its own options).
  if (verdict.reason.empty() && residual <= kUsableResidual)
    verdict.reason = std::string(name_of(options.method)) + "'s own residual estimate met the tolerance " + scientific(options.tolerance) +
                     " but the recomputed residual ||Ku - f||/||f|| is " + scientific(residual) +
                     ": rounding limits what double precision attains on this system; ask for a tolerance above " +
                     scientific(residual) + ", or use a direct solver";
  if (verdict.reason.empty())
    verdict.reason = std::string(name_of(options.method)) + " stopped as if converged, but the recomputed residual ||Ku - f||/||f|| is " +
                     scientific(residual) + ": it did not solve the system";
  const char* what = !(residual <= kUsableResidual) ? "is not a usable answer"
                     : require_convergence        ? "is short of the tolerance and solver.require_convergence is set"
                                                  : nullptr;
  if (what == nullptr) return verdict;
  throw SolveFailure(std::string(name_of(options.method)) + " returned a solution whose recomputed relative residual " +
                     scientific(residual) + " " + what + " (asked " + scientific(options.tolerance) +
                     "): the answer is not written. " + verdict.reason +
                     (options.petsc_options.empty() ? "" : "; it ran with solver.petsc_options '" + options.petsc_options + "'"));
}

}  // namespace fem

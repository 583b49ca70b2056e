#include "fem/pipeline/answer_check.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "solvers/solver_table.hpp"

namespace fem {
namespace {

constexpr double kDirectResidualLimit = 1e-6;
constexpr double kIterativeDrift = 10;

bool is_iterative(const std::string& method) {
  const SolverMethod* row = find_solver_method(method);
  return row && row->kind == SolverKind::Iterative;
}

}  // namespace

double accepted_residual(const SolverOptions& options) {
  return is_iterative(options.method) ? kIterativeDrift * options.tolerance : kDirectResidualLimit;
}

void require_accepted_residual(const SolverOptions& options, double residual) {
  const double limit = accepted_residual(options);
  if (residual <= limit) return;
  char line[512];
  if (is_iterative(options.method))
    std::snprintf(line, sizeof line,
                  "%s returned a solution whose recomputed relative residual ||Ku - f||/||f|| is %.3e, above the "
                  "tolerance %.1e (%.0fx allowed for rounding): the answer is not written. Loosen solver.tolerance, "
                  "use a stronger preconditioner or a direct solver%s",
                  options.method.c_str(), residual, options.tolerance, kIterativeDrift,
                  options.petsc_options.empty() ? "" : ", or check solver.petsc_options");
  else
    std::snprintf(line, sizeof line,
                  "%s returned a solution whose relative residual is %.3e: the system is singular or nearly so (is "
                  "the body held against every rigid motion, rotations included?)",
                  options.method.c_str(), residual);
  throw SolveFailure(line);
}

}  // namespace fem

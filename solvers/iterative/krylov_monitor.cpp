#include "solvers/iterative/krylov_monitor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fem {

KrylovMonitor::KrylovMonitor(std::string name, const SolverOptions& options, std::int64_t equations,
                             SolveReport& report)
    : name_(std::move(name)),
      options_(options),
      report_(report),
      max_iterations_(options.max_iterations > 0
                          ? options.max_iterations
                          : static_cast<int>(std::clamp<std::int64_t>(10 * equations, 1000, 1 << 30))),
      progress_(options) {}

bool KrylovMonitor::converged(int iteration, double relative_residual) {
  report_.residual_history.push_back(relative_residual);
  report_.iterations = iteration;
  report_.residual = relative_residual;
  if (relative_residual <= options_.tolerance) return true;
  if (!std::isfinite(relative_residual))
    throw SolveFailure(name_ + " met a residual of " + std::to_string(relative_residual) + " at iteration " +
                       std::to_string(iteration) +
                       ": the matrix, the right-hand side or the preconditioner holds NaN or Inf (check the "
                       "materials and loads of the case)");
  progress_.iteration(iteration, relative_residual, options_.tolerance);
  if (iteration >= max_iterations_) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s stopped at its iteration limit of %d with a relative residual of %.3e (asked %.1e): raise "
                  "solver.max_iterations or use a stronger preconditioner",
                  name_.c_str(), max_iterations_, relative_residual, options_.tolerance);
    report_.unconverged = line;
    return true;
  }
  return false;
}

}  // namespace fem

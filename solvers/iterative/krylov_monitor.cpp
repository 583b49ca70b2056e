#include "solvers/iterative/krylov_monitor.hpp"

#include <algorithm>
#include <cstdio>

namespace fem {

KrylovMonitor::KrylovMonitor(std::string name, const SolverOptions& options, std::int64_t equations,
                             SolveReport& report)
    : name_(std::move(name)),
      options_(options),
      report_(report),
      max_iterations_(options.max_iterations > 0
                          ? options.max_iterations
                          : static_cast<int>(std::clamp<std::int64_t>(10 * equations, 1000, 1 << 30))) {}

bool KrylovMonitor::converged(int iteration, double relative_residual) {
  report_.residual_history.push_back(relative_residual);
  report_.iterations = iteration;
  report_.residual = relative_residual;
  if (relative_residual <= options_.tolerance) return true;
  if (options_.progress && iteration > 0 && iteration % 500 == 0) {
    char line[96];
    std::snprintf(line, sizeof line, "iteration %d, relative residual %.3e", iteration, relative_residual);
    options_.progress(line);
  }
  if (iteration >= max_iterations_)
    throw SolveFailure(name_ + " did not converge in " + std::to_string(max_iterations_) +
                       " iterations (relative residual " + std::to_string(relative_residual) + ", asked " +
                       std::to_string(options_.tolerance) + "): is the body held against rigid motion?");
  return false;
}

}  // namespace fem

#pragma once
// What every Krylov solver (CPU or GPU) shares: the iteration limit, the residual history,
// the progress line (with the time left) every two seconds, and the note saying why it stopped
// when it did not converge.
#include <string>

#include "solvers/linear_solver.hpp"
#include "solvers/progress_meter.hpp"

namespace fem {

class KrylovMonitor {
 public:
  // `name` appears in messages ("cg", "bicgstab"); `equations` sizes the default iteration limit.
  KrylovMonitor(std::string name, const SolverOptions& options, std::int64_t equations, SolveReport& report);
  // Records the relative residual of iteration `iteration`; true when the solver should stop:
  // converged, or at the iteration limit (then report.unconverged says so, and the caller judges
  // the answer by its recomputed residual). Throws SolveFailure on a residual that is not finite.
  bool converged(int iteration, double relative_residual);
  int max_iterations() const { return max_iterations_; }

 private:
  std::string name_;
  const SolverOptions& options_;
  SolveReport& report_;
  int max_iterations_;
  ProgressMeter progress_;
};

}  // namespace fem

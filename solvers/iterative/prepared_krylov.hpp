#pragma once
// What CG and BiCGSTAB share once a matrix is prepared: its KrylovSetup (the matrix on the
// back-end, the preconditioner, AMG's hierarchy included) and work vectors, kept across
// right-hand sides; each right-hand side is solved from what `solution` holds (a warm start),
// with its own iteration count and residual history. setup().figures["setups"] is 1: the set-up
// is never redone.
#include <optional>
#include <span>
#include <string>

#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/krylov_setup.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

class PreparedKrylov : public PreparedSolver {
 public:
  SolveReport solve(std::span<const double> rhs, std::span<double> solution, int count) final;

 protected:
  // Sets `matrix` up on `backend` for the method `name` ("cg": messages), which uses
  // `work_vectors` vectors of n in all (x, r and t below included: the memory figure).
  // `backend`, the matrix and the coordinates must outlive this.
  PreparedKrylov(std::string name, const SolverOptions& options, const kernels::SparseBackend& backend,
                 SystemMatrix matrix, const NodeLayout& nodes, int work_vectors);

  // Iterates until `monitor` says converged, from x (the start) and r = f - A x, f of norm
  // `norm_f` > 0; leaves the solution in x. t is free for the method's use.
  virtual void iterate(double norm_f, KrylovMonitor& monitor) = 0;

  const SolverOptions& options() const { return options_; }
  const kernels::SparseBackend& backend() const { return backend_; }
  const KrylovSetup& krylov() const { return *krylov_; }

  KrylovSetup::Vector x_, r_, t_;  // the iterate, its residual, a free vector

 private:
  std::string name_;
  SolverOptions options_;
  const kernels::SparseBackend& backend_;
  std::int64_t rows_;
  std::optional<KrylovSetup> krylov_;
};

}  // namespace fem

#include "solvers/iterative/conjugate_gradient.hpp"

#include <cmath>

#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/krylov_setup.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

// Preconditioned CG on any sparse back-end: one SpMV, one dot and CG's two vector steps per iteration.
class ConjugateGradient final : public LinearSolver {
 public:
  explicit ConjugateGradient(SolverOptions options)
      : options_(std::move(options)), backend_(make_krylov_backend("cg", options_,
                                                                       {Preconditioner::None, Preconditioner::Jacobi,
                                                                        Preconditioner::BlockJacobi, Preconditioner::Ssor,
                                                                        Preconditioner::Amg})) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    SolveReport report;
    const Stopwatch setting_up;
    const KrylovSetup setup(*backend_, system, options_, report);
    auto u = setup.vector(), r = setup.rhs(), p = setup.vector(), q = setup.vector();
    report.memory_bytes = setup.bytes() + 4 * solution.size() * sizeof(double);
    report.time_setup_s = setting_up.seconds();

    const Stopwatch solving;
    KrylovMonitor monitor("cg", options_, system.matrix.rows, report);
    if (setup.rhs_norm() == 0) {
      std::fill(solution.begin(), solution.end(), 0.0);
      report.time_solve_s = solving.seconds();
      return report;
    }
    // r = f - K u (u is the starting guess the caller passes, usually zero); p = M^-1 r
    u->upload(solution);
    setup.spmv(*u, *q);
    backend_->axpby(-1.0, *q, 1.0, *r);
    setup.cg_direction(0.0, *r, *p);
    double rz = backend_->dot(*r, *p), rr = backend_->dot(*r, *r);
    int it = 0;
    while (!monitor.converged(it, std::sqrt(rr) / setup.rhs_norm())) {
      setup.spmv(*p, *q);
      const double pq = backend_->dot(*p, *q);
      if (!std::isfinite(pq))
        throw SolveFailure("cg met p.Kp = " + std::to_string(pq) + " at iteration " + std::to_string(it) +
                           ": the matrix or the preconditioner holds NaN or Inf (check the materials of the case)");
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      const auto sums = setup.cg_update(rz / pq, *p, *q, *u, *r);
      setup.cg_direction(sums.rz / rz, *r, *p);
      rz = sums.rz;
      rr = sums.rr;
      ++it;
    }
    u->download(solution);
    report.time_solve_s = solving.seconds();
    return report;
  }

 private:
  SolverOptions options_;
  std::unique_ptr<kernels::SparseBackend> backend_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_conjugate_gradient(const SolverOptions& options) {
  return std::make_unique<ConjugateGradient>(options);
}

}  // namespace fem

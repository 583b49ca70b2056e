#include "solvers/iterative/bicgstab.hpp"

#include <cmath>

#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/krylov_setup.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

class Bicgstab final : public LinearSolver {
 public:
  explicit Bicgstab(SolverOptions options)
      : options_(std::move(options)), backend_(make_krylov_backend("bicgstab", options_, {Preconditioner::None, Preconditioner::Jacobi, Preconditioner::Amg})) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    const kernels::SparseBackend& b = *backend_;
    SolveReport report;
    const Stopwatch setting_up;
    const KrylovSetup setup(b, system, options_, report);
    auto x = setup.vector(), r = setup.rhs(), r0 = setup.vector(), p = setup.vector(), v = setup.vector(),
         s = setup.vector(), t = setup.vector(), ph = setup.vector(), sh = setup.vector();
    report.memory_bytes = setup.bytes() + 9 * solution.size() * sizeof(double);
    report.time_setup_s = setting_up.seconds();

    const Stopwatch solving;
    KrylovMonitor monitor("bicgstab", options_, system.matrix.rows, report);
    const double norm_f = setup.rhs_norm();
    if (norm_f == 0) {
      std::fill(solution.begin(), solution.end(), 0.0);
      report.time_solve_s = solving.seconds();
      return report;
    }
    // r = f - K x; r0 = r; p = v = 0
    x->upload(solution);
    setup.spmv(*x, *t);
    b.axpby(-1.0, *t, 1.0, *r);
    b.axpby(1.0, *r, 0.0, *r0);
    b.axpby(0.0, *r, 0.0, *p);
    b.axpby(0.0, *r, 0.0, *v);
    double rho = 1, alpha = 1, omega = 1;
    int it = 0;
    while (!monitor.converged(it, std::sqrt(b.dot(*r, *r)) / norm_f)) {
      const double rho_next = b.dot(*r0, *r);
      if (rho_next == 0 || omega == 0)
        throw SolveFailure("bicgstab broke down at iteration " + std::to_string(it) +
                           " (rho or omega is zero): restart from the current iterate or use another method");
      const double beta = (rho_next / rho) * (alpha / omega);
      rho = rho_next;
      // p = r + beta (p - omega v)
      b.axpby(-omega, *v, 1.0, *p);
      b.axpby(1.0, *r, beta, *p);
      setup.precondition(*p, *ph);
      setup.spmv(*ph, *v);
      alpha = rho / b.dot(*r0, *v);
      // s = r - alpha v; x += alpha ph
      b.axpby(1.0, *r, 0.0, *s);
      b.axpby(-alpha, *v, 1.0, *s);
      b.axpby(alpha, *ph, 1.0, *x);
      if (std::sqrt(b.dot(*s, *s)) / norm_f <= options_.tolerance) {
        std::swap(r, s);
        ++it;
        continue;
      }
      setup.precondition(*s, *sh);
      setup.spmv(*sh, *t);
      const double tt = b.dot(*t, *t);
      omega = tt > 0 ? b.dot(*t, *s) / tt : 0.0;
      // x += omega sh; r = s - omega t
      b.axpby(omega, *sh, 1.0, *x);
      b.axpby(1.0, *s, 0.0, *r);
      b.axpby(-omega, *t, 1.0, *r);
      ++it;
    }
    x->download(solution);
    report.time_solve_s = solving.seconds();
    return report;
  }

 private:
  SolverOptions options_;
  std::unique_ptr<kernels::SparseBackend> backend_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_bicgstab(const SolverOptions& options) { return std::make_unique<Bicgstab>(options); }

}  // namespace fem

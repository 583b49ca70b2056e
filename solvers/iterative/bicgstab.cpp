#include "solvers/iterative/bicgstab.hpp"

#include <cmath>
#include <vector>

#include "solvers/iterative/cpu_vector_ops.hpp"
#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/preconditioner.hpp"

namespace fem {
namespace {

class CpuBicgstab final : public LinearSolver {
 public:
  explicit CpuBicgstab(SolverOptions options) : options_(std::move(options)) {
    require_preconditioner(options_.preconditioner, {"none", "jacobi", "amg"}, "bicgstab on the cpu");
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> x) override {
    const CsrMatrix& a = system.matrix;
    const auto n = static_cast<std::size_t>(a.rows);
    SolveReport report;
    const auto t_setup = KrylovClock::now();
    const auto m = make_preconditioner(options_.preconditioner, system, options_);
    std::vector<double> r(n), r0(n), p(n, 0.0), v(n, 0.0), s(n), t(n), ph(n), sh(n);
    report.memory_bytes = 8 * n * sizeof(double) + m->bytes();
    report.time_setup_s = seconds_since(t_setup);
    report.figures = m->figures();

    const auto t_solve = KrylovClock::now();
    KrylovMonitor monitor("bicgstab", options_, a.rows, report);
    const double norm_f = std::sqrt(cpu::dot(system.rhs, system.rhs));
    if (norm_f == 0) {
      std::fill(x.begin(), x.end(), 0.0);
      report.time_solve_s = seconds_since(t_solve);
      return report;
    }
    cpu::spmv(a, x, r);
    cpu::xpby(system.rhs, -1.0, r);
    r0 = r;
    double rho = 1, alpha = 1, omega = 1;
    int it = 0;
    while (!monitor.converged(it, std::sqrt(cpu::dot(r, r)) / norm_f)) {
      const double rho_next = cpu::dot(r0, r);
      if (rho_next == 0 || omega == 0)
        throw SolveFailure("bicgstab broke down at iteration " + std::to_string(it) +
                           " (rho or omega is zero): restart from the current iterate or use another method");
      const double beta = (rho_next / rho) * (alpha / omega);
      rho = rho_next;
      // p = r + beta (p - omega v)
      cpu::axpy(-omega, v, p);
      cpu::xpby(r, beta, p);
      m->apply(p, ph);
      cpu::spmv(a, ph, v);
      alpha = rho / cpu::dot(r0, v);
      s = r;
      cpu::axpy(-alpha, v, s);
      cpu::axpy(alpha, ph, x);
      if (std::sqrt(cpu::dot(s, s)) / norm_f <= options_.tolerance) {
        r = s;
        ++it;
        continue;
      }
      m->apply(s, sh);
      cpu::spmv(a, sh, t);
      const double tt = cpu::dot(t, t);
      omega = tt > 0 ? cpu::dot(t, s) / tt : 0.0;
      cpu::axpy(omega, sh, x);
      r = s;
      cpu::axpy(-omega, t, r);
      ++it;
    }
    report.time_solve_s = seconds_since(t_solve);
    return report;
  }

 private:
  SolverOptions options_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_cpu_bicgstab(const SolverOptions& options) {
  return std::make_unique<CpuBicgstab>(options);
}

}  // namespace fem

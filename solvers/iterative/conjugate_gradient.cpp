#include "solvers/iterative/conjugate_gradient.hpp"

#include <cmath>
#include <vector>

#include "solvers/iterative/cpu_vector_ops.hpp"
#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/preconditioner.hpp"

namespace fem {
namespace {

class CpuConjugateGradient final : public LinearSolver {
 public:
  explicit CpuConjugateGradient(SolverOptions options) : options_(std::move(options)) {
    require_preconditioner(options_.preconditioner, preconditioner_names(), "cg on the cpu");
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> u) override {
    const CsrMatrix& a = system.matrix;
    const auto n = static_cast<std::size_t>(a.rows);
    SolveReport report;
    const auto t_setup = KrylovClock::now();
    const auto m = make_preconditioner(options_.preconditioner, system, options_);
    std::vector<double> r(n), z(n), p(n), q(n);
    report.memory_bytes = 4 * n * sizeof(double) + m->bytes();
    report.time_setup_s = seconds_since(t_setup);
    report.figures = m->figures();

    const auto t_solve = KrylovClock::now();
    KrylovMonitor monitor("cg", options_, a.rows, report);
    const double norm_f = std::sqrt(cpu::dot(system.rhs, system.rhs));
    if (norm_f == 0) {
      std::fill(u.begin(), u.end(), 0.0);
      report.time_solve_s = seconds_since(t_solve);
      return report;
    }
    // r = f - K u (u is the starting guess the caller passes, usually zero)
    cpu::spmv(a, u, r);
    cpu::xpby(system.rhs, -1.0, r);
    m->apply(r, z);
    p = z;
    double rz = cpu::dot(r, z);
    int it = 0;
    while (!monitor.converged(it, std::sqrt(cpu::dot(r, r)) / norm_f)) {
      cpu::spmv(a, p, q);
      const double pq = cpu::dot(p, q);
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      const double alpha = rz / pq;
      cpu::axpy(alpha, p, u);
      cpu::axpy(-alpha, q, r);
      m->apply(r, z);
      const double rz_next = cpu::dot(r, z);
      cpu::xpby(z, rz_next / rz, p);
      rz = rz_next;
      ++it;
    }
    report.time_solve_s = seconds_since(t_solve);
    return report;
  }

 private:
  SolverOptions options_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_cpu_conjugate_gradient(const SolverOptions& options) {
  return std::make_unique<CpuConjugateGradient>(options);
}

}  // namespace fem

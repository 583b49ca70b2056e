#include "solvers/iterative/conjugate_gradient.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "solvers/iterative/cpu_vector_ops.hpp"

namespace fem {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

class CpuConjugateGradient final : public LinearSolver {
 public:
  explicit CpuConjugateGradient(SolverOptions options) : options_(std::move(options)) {
    if (options_.preconditioner != "none" && options_.preconditioner != "jacobi")
      throw SolverUnavailable("preconditioner '" + options_.preconditioner +
                              "' is not available for cg on the cpu (available: none, jacobi)");
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> u) override {
    const CsrMatrix& a = system.matrix;
    const auto n = static_cast<std::size_t>(a.rows);
    SolveReport report;
    const auto t_setup = Clock::now();
    std::vector<double> inv_diag(n, 1.0);
    if (options_.preconditioner == "jacobi") {
      for (std::size_t i = 0; i < n; ++i) {
        double d = 0;
        for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
          if (static_cast<std::size_t>(a.col[k]) == i) d = a.val[k];
        if (!(d > 0))
          throw SolveFailure("cg: diagonal entry " + std::to_string(d) + " of equation " + std::to_string(i) +
                                 " is not positive: the matrix is not positive definite",
                             static_cast<std::int64_t>(i));
        inv_diag[i] = 1.0 / d;
      }
    }
    std::vector<double> r(n), z(n), p(n), q(n);
    report.memory_bytes = 5 * n * sizeof(double);
    report.time_setup_s = seconds_since(t_setup);

    const auto t_solve = Clock::now();
    const int max_it = options_.max_iterations > 0 ? options_.max_iterations : std::max<int>(1000, 10 * static_cast<int>(n));
    const double norm_f = std::sqrt(cpu::dot(system.rhs, system.rhs));
    // r = f - K u (u is the starting guess the caller passes, usually zero)
    cpu::spmv(a, u, r);
#pragma omp parallel for
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) r[i] = system.rhs[i] - r[i];
    if (norm_f == 0) {
      std::fill(u.begin(), u.end(), 0.0);
      report.time_solve_s = seconds_since(t_solve);
      return report;
    }
    auto precondition = [&] {
#pragma omp parallel for
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) z[i] = inv_diag[i] * r[i];
    };
    precondition();
    p = z;
    double rz = cpu::dot(r, z);
    double rel = std::sqrt(cpu::dot(r, r)) / norm_f;
    report.residual_history.push_back(rel);
    int it = 0;
    while (rel > options_.tolerance) {
      if (it == max_it) {
        throw SolveFailure("cg did not converge in " + std::to_string(max_it) + " iterations (relative residual " +
                           std::to_string(rel) + ", asked " + std::to_string(options_.tolerance) +
                           "): is the body held against rigid motion?");
      }
      cpu::spmv(a, p, q);
      const double pq = cpu::dot(p, q);
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      const double alpha = rz / pq;
      cpu::axpy(alpha, p, u);
      cpu::axpy(-alpha, q, r);
      precondition();
      const double rz_next = cpu::dot(r, z);
      const double beta = rz_next / rz;
      rz = rz_next;
#pragma omp parallel for
      for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) p[i] = z[i] + beta * p[i];
      rel = std::sqrt(cpu::dot(r, r)) / norm_f;
      report.residual_history.push_back(rel);
      ++it;
      if (options_.progress && it % 500 == 0) {
        char line[96];
        std::snprintf(line, sizeof line, "iteration %d, relative residual %.3e", it, rel);
        options_.progress(line);
      }
    }
    report.iterations = it;
    report.residual = rel;
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

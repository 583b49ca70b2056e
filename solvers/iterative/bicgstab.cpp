#include "solvers/iterative/bicgstab.hpp"

#include <cmath>

#include "solvers/iterative/prepared_krylov.hpp"

namespace fem {
namespace {

class PreparedBicgstab final : public PreparedKrylov {
 public:
  PreparedBicgstab(const SolverOptions& options, const kernels::SparseBackend& backend, SystemMatrix matrix,
                   const NodeLayout& nodes)
      : PreparedKrylov("bicgstab", options, backend, matrix, nodes, 9), r0_(krylov().vector()),
        p_(krylov().vector()), v_(krylov().vector()), s_(krylov().vector()), ph_(krylov().vector()),
        sh_(krylov().vector()) {}

 private:
  void iterate(double norm_f, KrylovMonitor& monitor) override {
    const kernels::SparseBackend& b = backend();
    const KrylovSetup& setup = krylov();
    kernels::SparseVector &x = *x_, &r0 = *r0_, &p = *p_, &v = *v_, &t = *t_, &ph = *ph_, &sh = *sh_;
    // r0 = r; p = v = 0
    b.axpby(1.0, *r_, 0.0, r0);
    b.axpby(0.0, *r_, 0.0, p);
    b.axpby(0.0, *r_, 0.0, v);
    double rho = 1, alpha = 1, omega = 1;
    int it = 0;
    while (!monitor.converged(it, std::sqrt(b.dot(*r_, *r_)) / norm_f)) {
      kernels::SparseVector &r = *r_, &s = *s_;  // swapped when s is close enough to be the residual
      const double rho_next = b.dot(r0, r);
      if (rho_next == 0 || omega == 0)
        throw SolveFailure("bicgstab broke down at iteration " + std::to_string(it) +
                           " (rho or omega is zero): restart from the current iterate or use another method");
      const double beta = (rho_next / rho) * (alpha / omega);
      rho = rho_next;
      // p = r + beta (p - omega v)
      b.axpby(-omega, v, 1.0, p);
      b.axpby(1.0, r, beta, p);
      setup.precondition(p, ph);
      setup.spmv(ph, v);
      alpha = rho / b.dot(r0, v);
      // s = r - alpha v; x += alpha ph
      b.axpby(1.0, r, 0.0, s);
      b.axpby(-alpha, v, 1.0, s);
      b.axpby(alpha, ph, 1.0, x);
      if (std::sqrt(b.dot(s, s)) / norm_f <= options().tolerance) {
        std::swap(r_, s_);
        ++it;
        continue;
      }
      setup.precondition(s, sh);
      setup.spmv(sh, t);
      const double tt = b.dot(t, t);
      omega = tt > 0 ? b.dot(t, s) / tt : 0.0;
      // x += omega sh; r = s - omega t
      b.axpby(omega, sh, 1.0, x);
      b.axpby(1.0, s, 0.0, r);
      b.axpby(-omega, t, 1.0, r);
      ++it;
    }
  }

  KrylovSetup::Vector r0_, p_, v_, s_, ph_, sh_;
};

class Bicgstab final : public LinearSolver {
 public:
  explicit Bicgstab(SolverOptions options)
      : options_(std::move(options)), backend_(make_krylov_backend("bicgstab", options_, {Preconditioner::None, Preconditioner::Jacobi, Preconditioner::Amg})) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    return solve_by_preparing(system, solution);
  }

  std::unique_ptr<PreparedSolver> prepare(const CsrMatrix& matrix, NodeLayout nodes) override {
    return std::make_unique<PreparedBicgstab>(options_, *backend_, matrix, nodes);
  }

  bool takes_node_blocks() const override { return krylov_takes_node_blocks(*backend_, options_); }

  std::unique_ptr<PreparedSolver> prepare(const SystemMatrix& blocks, NodeLayout nodes) override {
    return std::make_unique<PreparedBicgstab>(options_, *backend_, blocks, nodes);
  }

 private:
  SolverOptions options_;
  std::unique_ptr<kernels::SparseBackend> backend_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_bicgstab(const SolverOptions& options) { return std::make_unique<Bicgstab>(options); }

}  // namespace fem

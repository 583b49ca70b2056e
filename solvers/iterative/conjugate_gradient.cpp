#include "solvers/iterative/conjugate_gradient.hpp"

#include <cmath>

#include "solvers/iterative/prepared_krylov.hpp"

namespace fem {
namespace {

// Preconditioned CG on any sparse back-end: one SpMV, one dot and CG's two vector steps per iteration.
class PreparedCg final : public PreparedKrylov {
 public:
  PreparedCg(const SolverOptions& options, const kernels::SparseBackend& backend, SystemMatrix matrix,
             const NodeLayout& nodes)
      : PreparedKrylov("cg", options, backend, matrix, nodes, 4), p_(krylov().vector()) {}

 private:
  void iterate(double norm_f, KrylovMonitor& monitor) override {
    const KrylovSetup& setup = krylov();
    kernels::SparseVector &u = *x_, &r = *r_, &p = *p_, &q = *t_;
    setup.cg_direction(0.0, r, p);  // p = M^-1 r
    double rz = backend().dot(r, p), rr = backend().dot(r, r);
    int it = 0;
    while (!monitor.converged(it, std::sqrt(rr) / norm_f)) {
      setup.spmv(p, q);
      const double pq = backend().dot(p, q);
      if (!std::isfinite(pq))
        throw SolveFailure("cg met p.Kp = " + std::to_string(pq) + " at iteration " + std::to_string(it) +
                           ": the matrix or the preconditioner holds NaN or Inf (check the materials of the case)");
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      const auto sums = setup.cg_update(rz / pq, p, q, u, r);
      setup.cg_direction(sums.rz / rz, r, p);
      rz = sums.rz;
      rr = sums.rr;
      ++it;
    }
  }

  KrylovSetup::Vector p_;
};

class ConjugateGradient final : public LinearSolver {
 public:
  explicit ConjugateGradient(SolverOptions options)
      : options_(std::move(options)), backend_(make_krylov_backend("cg", options_,
                                                                       {Preconditioner::None, Preconditioner::Jacobi,
                                                                        Preconditioner::BlockJacobi, Preconditioner::Ssor,
                                                                        Preconditioner::Amg})) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    return solve_by_preparing(system, solution);
  }

  std::unique_ptr<PreparedSolver> prepare(const CsrMatrix& matrix, NodeLayout nodes) override {
    return std::make_unique<PreparedCg>(options_, *backend_, matrix, nodes);
  }

  bool takes_node_blocks() const override { return krylov_takes_node_blocks(*backend_, options_); }

  std::unique_ptr<PreparedSolver> prepare(const SystemMatrix& blocks, NodeLayout nodes) override {
    return std::make_unique<PreparedCg>(options_, *backend_, blocks, nodes);
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

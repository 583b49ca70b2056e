#include "solvers/iterative/amg/coarse_solver.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "kernels/dense_registry.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {
namespace {

// The factorisation on all threads; the two substitutions of each V-cycle (a few n^2 flops) on
// one, where waking threads would cost more than the work.
kernels::DenseBackend& factor_backend() {
  static const std::unique_ptr<kernels::DenseBackend> openmp = kernels::make_dense_backend("openmp");
  return *openmp;
}
kernels::DenseBackend& solve_backend() {
  static const std::unique_ptr<kernels::DenseBackend> serial = kernels::make_dense_backend("serial");
  return *serial;
}

}  // namespace

CoarseSolver::CoarseSolver(const BlockSparse& a) : n_(a.rows()), factor_(to_dense(a)) {
  try {
    factor_backend().potrf(factor_backend().wrap(factor_.data(), n_, n_, n_));
  } catch (const kernels::NotPositiveDefinite& e) {
    throw SolveFailure("amg: the coarsest operator (" + std::to_string(n_) + " unknowns) is not positive definite at " +
                       "its unknown " + std::to_string(e.column()) + ": is the body free to move?");
  }
}

void CoarseSolver::solve(std::span<const double> b, std::span<double> x) const {
  std::copy(b.begin(), b.end(), x.begin());
  const auto l = solve_backend().wrap(factor_.data(), n_, n_, n_);
  const auto v = solve_backend().wrap(x.data(), n_, 1, 1);
  solve_backend().trsm(kernels::Side::left, kernels::Op::none, l, v);
  solve_backend().trsm(kernels::Side::left, kernels::Op::transpose, l, v);
}

}  // namespace fem::amg

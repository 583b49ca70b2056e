#include "solvers/iterative/amg/coarse_solver.hpp"

#include <algorithm>
#include <string>

#include "kernels/cpu/openmp_backend.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {
namespace {

kernels::cpu::OpenMPBackend& backend() {
  static kernels::cpu::OpenMPBackend openmp;
  return openmp;
}

}  // namespace

CoarseSolver::CoarseSolver(const BlockSparse& a) : n_(a.rows()), factor_(to_dense(a)) {
  try {
    backend().potrf(backend().wrap(factor_.data(), n_, n_, n_));
  } catch (const kernels::NotPositiveDefinite& e) {
    throw SolveFailure("amg: the coarsest operator (" + std::to_string(n_) + " unknowns) is not positive definite at " +
                       "its unknown " + std::to_string(e.column()) + ": is the body free to move?");
  }
}

void CoarseSolver::solve(std::span<const double> b, std::span<double> x) const {
  std::copy(b.begin(), b.end(), x.begin());
  const auto l = backend().wrap(factor_.data(), n_, n_, n_);
  const auto v = backend().wrap(x.data(), n_, 1, 1);
  backend().trsm(kernels::Side::left, kernels::Op::none, l, v);
  backend().trsm(kernels::Side::left, kernels::Op::transpose, l, v);
}

}  // namespace fem::amg

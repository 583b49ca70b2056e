#pragma once
// The coarsest AMG level, solved exactly: a dense Cholesky factor from the OpenMP dense back-end
// (kernels), two triangular solves per V-cycle on the serial one.
#include <span>
#include <vector>

#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

class CoarseSolver {
 public:
  // Throws SolveFailure when the coarsest operator is not positive definite.
  explicit CoarseSolver(const BlockSparse& a);
  void solve(std::span<const double> b, std::span<double> x) const;
  std::size_t bytes() const { return factor_.size() * sizeof(double); }

 private:
  std::int64_t n_;
  mutable std::vector<double> factor_;  // row-major n x n, lower triangle = L
};

}  // namespace fem::amg

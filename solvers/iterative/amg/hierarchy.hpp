#pragma once
// The AMG setup on the host: the levels of smoothed aggregation from the fine matrix down to a
// coarsest operator small enough for a dense Cholesky factor. Every level holds block-sparse
// matrices and the smoother's diagonal only, so the cycle (v_cycle.hpp) is block SpMVs and
// vector steps that any sparse back-end runs.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "solvers/iterative/amg/coarse_solver.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {

// What the V-cycle needs of a level, its matrices in single precision (built in double).
struct Level {
  SingleBlockSparse a;                  // the operator of this level
  SingleBlockSparse p, r;               // prolongation from / restriction to the next level (R = P^T)
  // The smoother's D^-1 and the largest eigenvalue of D^-1 A; empty on a coarsest level solved
  // by Cholesky.
  std::vector<double> inv_diag;
  double lambda_max = 0;
  bool smoothed() const { return !inv_diag.empty(); }
};

class Hierarchy {
 public:
  // Throws SolveFailure naming the equation of a non-positive diagonal entry, or when the
  // coarsest operator is not positive definite.
  Hierarchy(const CsrMatrix& a, const NodeLayout& nodes, const AmgOptions& options);

  const std::vector<std::unique_ptr<Level>>& levels() const { return levels_; }
  // The exact solve of the coarsest level; null when coarsening stalled above the size a dense
  // factor allows, and the smoother serves there instead.
  const CoarseSolver* coarse_solver() const { return coarse_.get(); }
  bool rigid_body_modes() const { return rigid_body_modes_; }

  // levels, operator and grid complexity, coarsest size, near-null vectors, the setup's seconds
  // by step.
  std::map<std::string, double> figures() const;
  std::size_t bytes() const;

 private:
  std::vector<std::unique_ptr<Level>> levels_;
  std::unique_ptr<CoarseSolver> coarse_;
  int near_null_vectors_ = 0;
  bool rigid_body_modes_ = false;
  struct {
    double convert = 0, aggregate = 0, eigenvalue = 0, prolongator = 0, galerkin = 0, coarse = 0;
  } seconds_;
};

}  // namespace fem::amg

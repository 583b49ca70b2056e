#pragma once
// The AMG preconditioner: one V-cycle over the hierarchy per application, from a zero guess,
// written once against the sparse back-end (kernels/sparse_backend.hpp). The setup runs on the
// host (hierarchy.hpp); each level's A, P and R = P^T live on the back-end as block matrices in
// single precision (or double: AmgOptions::precision), and smoothing, restriction and
// prolongation run there. The coarsest level is solved on the host by its dense Cholesky factor:
// its small right-hand side is downloaded and the solution uploaded, the only host round trip of
// a cycle. Pre- and post-smoothing are the
// same polynomial and restriction is the transpose of prolongation, so M^-1 is symmetric
// positive definite and CG stays valid.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/hierarchy.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {

class VCycle {
 public:
  // Builds the hierarchy (the setup) for the matrix and its node layout, and moves its levels
  // onto `backend`, which must outlive the cycle. Throws std::invalid_argument for bad options,
  // SolveFailure as Hierarchy does.
  VCycle(const kernels::SparseBackend& backend, SystemMatrix a, const NodeLayout& nodes,
         const AmgOptions& options, bool keep_fine_operator = false);
  ~VCycle();

  // Hierarchy::take_fine_operator (kept when asked above).
  std::shared_ptr<const kernels::SparseMatrix> take_fine_operator() { return hierarchy_.take_fine_operator(); }

  // x = M^-1 b (b and x vectors of `backend`, of the fine size).
  void apply(const kernels::SparseVector& b, kernels::SparseVector& x) const;

  std::size_t bytes() const;  // the host hierarchy and what the back-end holds
  std::map<std::string, double> figures() const;  // the hierarchy's

 private:
  struct BackendLevel;
  void cycle(std::size_t l, const kernels::SparseVector& b, kernels::SparseVector& x) const;

  const kernels::SparseBackend& backend_;
  Hierarchy hierarchy_;
  std::vector<std::unique_ptr<BackendLevel>> levels_;
  mutable std::vector<double> coarse_b_, coarse_x_;  // the coarsest level's vectors on the host
};

}  // namespace fem::amg

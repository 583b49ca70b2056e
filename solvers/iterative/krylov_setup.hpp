#pragma once
// What a Krylov method needs on one sparse back-end, set up once per matrix and kept for all its
// right-hand sides (prepared_krylov.hpp): the matrix in the back-end's format, the preconditioner
// where the back-end applies it (fused into CG's steps when M^-1 is block-diagonal, AMG's V-cycle
// through the back-end's kernels, SSOR on the host). CG and BiCGSTAB are written once against
// this, whatever the device.
#include <memory>
#include <string>
#include <vector>

#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/v_cycle.hpp"
#include "solvers/iterative/preconditioner.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

// The back-end of `options.device` for the Krylov method `method` ("cg"), with the preconditioner
// (one of `preconditioners`, the method's own, that the back-end can apply) and the SpMV setting
// checked: SolverUnavailable names what is missing, std::invalid_argument a bad setting.
std::unique_ptr<kernels::SparseBackend> make_krylov_backend(const std::string& method, const SolverOptions& options,
                                                            const std::vector<Preconditioner>& preconditioners);

// Whether a Krylov method with these options multiplies K in node blocks: with AMG on the host,
// or on a device whose SpMV is left to "auto" (KrylovSetup's operator_from_amg).
bool krylov_takes_node_blocks(const kernels::SparseBackend& backend, const SolverOptions& options);

class KrylovSetup {
 public:
  using Vector = std::unique_ptr<kernels::SparseVector>;

  // Moves A to the back-end and builds the preconditioner (AMG's near-null space from `nodes`);
  // records setup figures in `report`. `matrix` and the coordinates must outlive this. Node
  // blocks only where krylov_takes_node_blocks() (std::invalid_argument elsewhere).
  KrylovSetup(const kernels::SparseBackend& backend, SystemMatrix matrix, const NodeLayout& nodes,
              const SolverOptions& options, SolveReport& report);

  Vector vector() const { return backend_.vector(n_); }
  std::size_t bytes() const;           // matrix and preconditioner on the back-end

  void spmv(const kernels::SparseVector& x, kernels::SparseVector& y) const;  // y = A x
  void precondition(const kernels::SparseVector& r, kernels::SparseVector& z) const;  // z = M^-1 r
  // CG's steps: u += alpha p, r -= alpha q, returning r.(M^-1 r) and r.r; then p = M^-1 r + beta p.
  // One fused pass each where M^-1 is block-diagonal, through a z vector otherwise.
  kernels::CgSums cg_update(double alpha, const kernels::SparseVector& p, const kernels::SparseVector& q,
                            kernels::SparseVector& u, kernels::SparseVector& r) const;
  void cg_direction(double beta, const kernels::SparseVector& r, kernels::SparseVector& p) const;

 private:
  const kernels::SparseBackend& backend_;
  std::size_t n_;
  std::shared_ptr<const kernels::SparseMatrix> matrix_;
  bool block_operator_ = false;  // matrix_ is a block_matrix() (AMG's fine operator), not a matrix()
  std::unique_ptr<HostPreconditioner> host_preconditioner_;   // SSOR, on the host
  std::unique_ptr<kernels::BlockDiagonal> block_diagonal_;  // when M^-1 is block-diagonal
  std::unique_ptr<amg::VCycle> amg_;                        // AMG, on the back-end
  Vector z_;                                                // M^-1 r when it is not block-diagonal
  // The r whose M^-1 r z_ holds since cg_update, so cg_direction need not apply M again (SSOR
  // and AMG cost as much as a product); null when z_ may be stale.
  mutable const kernels::SparseVector* z_is_of_ = nullptr;
};

}  // namespace fem

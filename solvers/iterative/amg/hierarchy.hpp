#pragma once
// The AMG setup on the host: the levels of smoothed aggregation from the fine matrix down to a
// coarsest operator small enough for a dense Cholesky factor. Every level holds block-sparse
// matrices and the smoother's diagonal only, so the cycle (v_cycle.hpp) is block SpMVs and
// vector steps that any sparse back-end runs. Each level's matrices go to the back-end as soon as
// they are made, copied beside the setup's next steps; on a device the fine level's Lanczos steps
// run there too, beside the host's aggregation, the coarser levels' on the host, and where the
// device makes a level's transfer (kernels/level_transfer.hpp: CUDA) the fine level's A T, P, R
// and P^T A P are made there from its copy of A: the host aggregates, makes T and mirrors the
// coarse operator's upper blocks, and never holds the fine level's P or R.
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "solvers/iterative/amg/coarse_solver.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {

class BackgroundUploads;
struct Aggregates;
struct NearNullSpace;

// What the V-cycle needs of a level, its matrices in the precision options.precision asks (built
// in double).
struct Level {
  std::int64_t rows = 0, nnz = 0;       // the operator's size and stored entries
  SingleBlockSparse a;                  // the operator of this level in single precision; empty where
                                        // the back-end made its single copy itself (the fine level on
                                        // a device) and where the levels stay in double
  SingleBlockSparse p, r;               // prolongation from / restriction to the next level (R = P^T);
                                        // empty where the back-end narrowed them itself or in double
  // The same on the back-end (the host one multiplies the copies above, or the hierarchy's double
  // blocks, in place); null where
  // absent (no P, R on the coarsest level, no A where the Cholesky factor solves it).
  std::unique_ptr<kernels::SparseMatrix> a_on_backend, p_on_backend, r_on_backend;
  // The smoother's D^-1 and the largest eigenvalue of D^-1 A; empty on a coarsest level solved
  // by Cholesky.
  Values inv_diag;
  std::vector<double> l1_row_sums;  // sum_j |a_ij| of each row, for the l1-Jacobi smoother only
  double lambda_max = 0;
  bool smoothed() const { return !inv_diag.empty(); }
};

class Hierarchy {
 public:
  // A step's seconds, the minor page faults of the process meanwhile (its threads' and the copies'
  // beside it: the first touch of fresh memory), and the bytes the large-block cache mapped fresh
  // and handed out again for it (support/large_block_cache.hpp).
  struct StepCost {
    double seconds = 0, page_faults = 0, mapped_bytes = 0, reused_bytes = 0;
  };

  // Throws SolveFailure naming the equation of a non-positive diagonal entry, or when the
  // coarsest operator is not positive definite.
  // `keep_fine_operator`: copy the fine operator's double blocks to the back-end for
  // take_fine_operator() (the host back-end's copy refers to the hierarchy's blocks), or keep the
  // copy `a` brings (SystemMatrix::blocks_on_device) where the back-end narrows it.
  // `backend` (and node blocks handed in) must outlive the hierarchy; node blocks must be
  // nodes.dofs_per_node square (std::invalid_argument).
  Hierarchy(const kernels::SparseBackend& backend, SystemMatrix a, const NodeLayout& nodes,
            const AmgOptions& options, bool keep_fine_operator = false);

  // The fine operator in double-precision blocks on the back-end, moved out (a device's Krylov
  // operator: the conversion is made once, the copy runs beside the setup); null unless kept.
  std::shared_ptr<const kernels::SparseMatrix> take_fine_operator();

  const std::vector<std::unique_ptr<Level>>& levels() const { return levels_; }
  // The exact solve of the coarsest level; null when coarsening stalled above the size a dense
  // factor allows, and the smoother serves there instead.
  const CoarseSolver* coarse_solver() const { return coarse_.get(); }
  bool rigid_body_modes() const { return rigid_body_modes_; }

  // levels, operator and grid complexity, coarsest size, near-null vectors, amg_single_precision
  // (1 where the levels' matrices are single, 0 double), the setup's seconds
  // by step (amg_setup_upload_s: the wait for the copies to the back-end, which run beside the
  // other steps; amg_setup_eigenvalue_s: the Lanczos steps on the host and the wait for those on
  // a device; their own seconds in amg_setup_*_background_s, the fine operator's copy that the
  // Lanczos steps wait for in amg_setup_fine_copy_background_s; amg_setup_restrictions_transposed_early:
  // the levels whose R was made from (A T)^T while lambda_max was sought; amg_setup_other_s: what no step
  // accounts for), amg_setup_s in all; for each step and in all, amg_setup_*page_faults and
  // amg_setup_*mapped_bytes (StepCost), amg_setup_reused_bytes in all; the fine level's Galerkin
  // product's threads (amg_setup_galerkin_fine_threads) and the seconds the least and the most
  // busy of them worked (amg_setup_galerkin_fine_thread_min_s, _max_s), or 1 in
  // amg_setup_galerkin_fine_on_device where the device made it.
  std::map<std::string, double> figures() const;
  std::size_t bytes() const;  // on the host and on the back-end

 private:
  // The fine operator in node blocks: converted into fine_ (`norms` gets their blocks' squared
  // norms, made on the way), or those handed in (checked to be `dofs_per_node` square; `norms`
  // left empty: no array of them is worth its memory), with their copy on the device where the
  // assembly left one there and `device_narrows` the fine level (fine_on_backend_). Blocks handed
  // in without their values (SystemMatrix::fetch_values) have them fetched here unless that copy
  // serves, and later only where a step must read them (values_to_host).
  const BlockSparse* fine_in_blocks(SystemMatrix fine, int dofs_per_node, Values& norms, bool device_narrows);
  // Fetches the fine blocks' values where `a` is those blocks without them (a coarser level has its own).
  void values_to_host(const BlockSparse& a);
  // Sends `fine_to_send` (unless null: the Krylov method's operator where no step sent it), waits
  // for every copy to the back-end and records their time.
  void finish_uploads(BackgroundUploads& uploads, const BlockSparse* fine_to_send);
  // The steps of a level's setup after its aggregation (hierarchy.cpp).
  struct Transfer;
  template <class Threads>
  Values level_diagonal(const kernels::SparseBackend& backend, const BlockSparse& a, bool fine_level,
                        const kernels::SparseMatrix* fine_on_device, double threshold,
                        std::optional<kernels::LevelValues>& on_device, const Threads& threads);
  template <class Threads>
  Aggregates level_aggregates(const BlockSparse& a, double threshold, const Values& fine_norms,
                              const std::optional<kernels::LevelValues>& on_device, const Threads& threads);
  template <class Running, class Threads>
  void make_tentative(const kernels::SparseBackend& backend, Transfer& transfer, const BlockSparse& a,
                      const Aggregates& aggregates, const kernels::LevelValues* on_device, NearNullSpace& b,
                      const std::shared_future<void>& fine_copied, const Running& lambda_sought_on_device,
                      const Threads& threads);
  template <class Spectrum, class Threads>
  double level_eigenvalue(const kernels::SparseBackend& backend, std::unique_ptr<kernels::SparseBackend>& host,
                          const BlockSparse& a, Level& level, const Values& inv_diag, std::future<Spectrum>& spectrum, const Threads& threads);
  template <class Threads>
  BlockSparse coarse_operator(const kernels::SparseBackend& backend, BackgroundUploads& uploads, const BlockSparse& a,
                              Level& level, Transfer& transfer, const Values& inv_diag, double lambda_max,
                              bool narrowed_on_backend, const Threads& threads);
  template <class Threads>
  BlockSparse coarse_operator_on_backend(kernels::LevelTransfer& transfer, const BlockSparse& a, Level& level,
                                         const Values& inv_diag, double omega, bool narrowed_on_backend,
                                         const Threads& threads);

  std::vector<std::unique_ptr<Level>> levels_;
  std::unique_ptr<CoarseSolver> coarse_;
  // The fine operator's double blocks where converted from CSR (freed once a device that narrows
  // them has its copy; blocks handed in are read in place), and
  // P and R in double where copies to a device read them, or the coarser levels' A, P and R where
  // the levels stay in double, kept until the hierarchy goes (a deque: the copies and the host's
  // back-end read them in place). The setup's other temporaries are freed as soon as they are
  // spent, into the large-block cache, whose pages the next steps reuse: unmapping them would cost
  // about 0.1 s a gigabyte and stall the other threads' page faults and copies.
  BlockSparse fine_;
  std::deque<BlockSparse> spent_;
  // The fine operator's double blocks on the back-end: the assembly's (SystemMatrix::
  // blocks_on_device), or copied there by the setup (fine_uploaded_ while a background copy
  // makes it).
  std::shared_ptr<const kernels::SparseMatrix> fine_on_backend_;
  std::unique_ptr<kernels::SparseMatrix> fine_uploaded_;
  std::function<void()> fetch_fine_values_;  // where the fine blocks came without values, until called
  std::vector<double> fine_galerkin_threads_s_;  // the seconds each thread worked on the fine level's R A P
  int near_null_vectors_ = 0;
  int restrictions_transposed_early_ = 0;  // levels whose (A T)^T was made while the device sought lambda_max
  bool rigid_body_modes_ = false;
  bool galerkin_on_device_ = false;  // the fine level's P^T A P made by the device
  bool double_levels_ = false;  // options.precision is Double: no single copies
  struct {
    StepCost near_null, convert, diagonal, aggregate, eigenvalue, prolongator, galerkin, coarse, total;
  } steps_;
  struct {
    double upload = 0, upload_background = 0, fine_copy_background = 0, eigenvalue_background = 0;
  } seconds_;
};

}  // namespace fem::amg

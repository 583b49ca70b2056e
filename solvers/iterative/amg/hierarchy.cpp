#include "solvers/iterative/amg/hierarchy.hpp"

#include <chrono>
#include <string>

#include "solvers/iterative/amg/aggregation.hpp"
#include "solvers/iterative/amg/near_null_space.hpp"
#include "solvers/iterative/amg/smoothed_prolongator.hpp"
#include "solvers/iterative/amg/spectral_radius.hpp"
#include "solvers/iterative/amg/tentative_prolongator.hpp"

namespace fem::amg {
namespace {

// At most this many levels; a coarsest level above this many unknowns is smoothed, not factored.
constexpr std::size_t kMaxLevels = 12;
constexpr std::int64_t kMaxDenseCoarse = 8000;
// Coarsening that keeps more than this fraction of the unknowns has stalled.
constexpr double kStalled = 0.8;

// Runs `step` and adds its seconds to `total`.
template <class Step>
auto timed(double& total, Step&& step) {
  const auto t0 = std::chrono::steady_clock::now();
  struct Add {
    double& total;
    std::chrono::steady_clock::time_point t0;
    ~Add() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
  } add{total, t0};
  return step();
}

std::vector<double> inverse_diagonal(const BlockSparse& a, std::size_t level) {
  std::vector<double> d = diagonal(a);
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!(d[i] > 0))
      throw SolveFailure("diagonal entry " + std::to_string(d[i]) + " of " +
                             (level == 0 ? "equation " + std::to_string(i) : "the AMG level " + std::to_string(level) +
                                                                                  " unknown " + std::to_string(i)) +
                             " is not positive: the matrix is not positive definite",
                         level == 0 ? static_cast<std::int64_t>(i) : -1);
    d[i] = 1.0 / d[i];
  }
  return d;
}

}  // namespace

Hierarchy::Hierarchy(const kernels::SparseBackend& backend, const CsrMatrix& fine, const NodeLayout& nodes,
                     const AmgOptions& options, bool keep_fine_operator) {
  const auto upload = [&](const SingleBlockSparse& m) {
    return timed(seconds_.upload, [&] { return backend.block_matrix(m); });
  };
  NearNullSpace b = near_null_space(nodes, fine.rows);
  near_null_vectors_ = b.vectors;
  rigid_body_modes_ = b.rigid_body_modes;
  // The operator of the level being built, in double: the setup's products need the precision.
  fine_ = timed(seconds_.convert, [&] { return to_block_sparse(fine, nodes.dofs_per_node); });
  const BlockSparse* current = &fine_;
  BlockSparse coarser;  // the operator of a level below the fine one
  for (;;) {
    const BlockSparse& a = *current;
    levels_.push_back(std::make_unique<Level>());
    Level& level = *levels_.back();
    const std::int64_t rows = a.rows();
    std::vector<double> inv_diag = inverse_diagonal(a, levels_.size() - 1);
    Aggregates aggregates;
    if (rows > options.coarse_size && levels_.size() < kMaxLevels)
      aggregates = timed(seconds_.aggregate, [&] { return aggregate(a, options.strength_threshold); });
    const bool coarsest = aggregates.count == 0 || aggregates.count * b.vectors > kStalled * static_cast<double>(rows);
    // The single copy the V-cycle multiplies with, which the Lanczos steps use too (half the bytes).
    level.a = timed(seconds_.convert, [&] { return to_single(a); });
    if (coarsest && rows <= kMaxDenseCoarse) {
      coarse_ = timed(seconds_.coarse, [&] { return std::make_unique<CoarseSolver>(a); });
      break;
    }
    level.a_on_backend = upload(level.a);
    const double lambda_max =
        timed(seconds_.eigenvalue, [&] { return largest_eigenvalue(backend, *level.a_on_backend, inv_diag); });
    BlockSparse coarse;
    if (!coarsest) {
      TentativeProlongator tentative = timed(seconds_.prolongator, [&] {
        return tentative_prolongator(aggregates, b, a.row_block, decoupled_equations(a));
      });
      const BlockSparse p = timed(seconds_.prolongator, [&] {
        return smoothed_prolongator(a, tentative.t, inv_diag, 4.0 / 3.0 / lambda_max);
      });
      const BlockSparse r = timed(seconds_.prolongator, [&] { return transpose(p); });
      coarse = timed(seconds_.galerkin, [&] { return galerkin_product(r, a, p); });
      timed(seconds_.convert, [&] {
        level.p = to_single(p);
        level.r = to_single(r);
        return 0;
      });
      level.p_on_backend = upload(level.p);
      level.r_on_backend = upload(level.r);
      b = std::move(tentative.coarse);
    }
    level.inv_diag = std::move(inv_diag);
    level.lambda_max = lambda_max;
    if (coarsest) break;
    coarser = std::move(coarse);  // the level's own operator is no longer needed: its single copy is kept
    current = &coarser;
  }
  if (!keep_fine_operator) fine_ = {};
}

std::map<std::string, double> Hierarchy::figures() const {
  double nnz = 0, rows = 0;
  for (const auto& level : levels_) nnz += static_cast<double>(level->a.nnz()), rows += static_cast<double>(level->a.rows());
  const SingleBlockSparse& fine = levels_.front()->a;
  return {{"amg_levels", static_cast<double>(levels_.size())},
          {"amg_operator_complexity", nnz / static_cast<double>(fine.nnz())},
          {"amg_grid_complexity", rows / static_cast<double>(fine.rows())},
          {"amg_coarsest_unknowns", static_cast<double>(levels_.back()->a.rows())},
          {"amg_near_null_vectors", near_null_vectors_},
          {"amg_rigid_body_modes", rigid_body_modes_ ? 1.0 : 0.0},
          {"amg_setup_convert_s", seconds_.convert},
          {"amg_setup_aggregate_s", seconds_.aggregate},
          {"amg_setup_eigenvalue_s", seconds_.eigenvalue},
          {"amg_setup_prolongator_s", seconds_.prolongator},
          {"amg_setup_galerkin_s", seconds_.galerkin},
          {"amg_setup_coarse_s", seconds_.coarse},
          {"amg_setup_upload_s", seconds_.upload}};
}

BlockSparse Hierarchy::take_fine_operator() { return std::move(fine_); }

std::size_t Hierarchy::bytes() const {
  std::size_t total = (coarse_ ? coarse_->bytes() : 0) + fine_.bytes();
  for (const auto& level : levels_) {
    total += level->a.bytes() + level->p.bytes() + level->r.bytes() + level->inv_diag.size() * sizeof(double);
    for (const auto* m : {level->a_on_backend.get(), level->p_on_backend.get(), level->r_on_backend.get()})
      if (m) total += m->device_bytes();
  }
  return total;
}

}  // namespace fem::amg

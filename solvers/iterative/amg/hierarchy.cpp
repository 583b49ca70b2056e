#include "solvers/iterative/amg/hierarchy.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include <omp.h>
#include <sys/resource.h>

#include "solvers/iterative/amg/aggregation.hpp"
#include "solvers/iterative/amg/background_uploads.hpp"
#include "solvers/iterative/amg/near_null_space.hpp"
#include "solvers/iterative/amg/smoothed_prolongator.hpp"
#include "solvers/iterative/amg/spectral_radius.hpp"
#include "solvers/iterative/amg/tentative_prolongator.hpp"
#include "support/large_block_cache.hpp"
#include "support/stopwatch.hpp"

namespace fem::amg {
namespace {

// At most this many levels; a coarsest level above this many unknowns is smoothed, not factored.
constexpr std::size_t kMaxLevels = 12;
constexpr std::int64_t kMaxDenseCoarse = 8000;
// Coarsening that keeps more than this fraction of the unknowns has stalled.
constexpr double kStalled = 0.8;

// The OpenMP threads of the calling thread's parallel steps, set for a scope.
class OpenMpThreads {
 public:
  explicit OpenMpThreads(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OpenMpThreads() { omp_set_num_threads(saved_); }
  OpenMpThreads(const OpenMpThreads&) = delete;
  OpenMpThreads& operator=(const OpenMpThreads&) = delete;

 private:
  int saved_;
};

// The process's minor page faults so far.
double minor_page_faults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_minflt);
}

// Adds what passes from its making to its end to `cost`.
class Metered {
 public:
  explicit Metered(Hierarchy::StepCost& cost)
      : cost_(cost), faults_(minor_page_faults()), cache_(LargeBlockCache::process().counts()) {}
  ~Metered() {
    const LargeBlockCache::Counts now = LargeBlockCache::process().counts();
    cost_.seconds += watch_.seconds();
    cost_.page_faults += minor_page_faults() - faults_;
    cost_.mapped_bytes += static_cast<double>(now.mapped_bytes - cache_.mapped_bytes);
    cost_.reused_bytes += static_cast<double>(now.reused_bytes - cache_.reused_bytes);
  }
  Metered(const Metered&) = delete;
  Metered& operator=(const Metered&) = delete;

 private:
  Hierarchy::StepCost& cost_;
  Stopwatch watch_;
  double faults_;
  LargeBlockCache::Counts cache_;
};

// Runs `step` on `threads` OpenMP threads and adds its cost to `cost`.
template <class Step>
auto timed(Hierarchy::StepCost& cost, int threads, Step&& step) {
  const OpenMpThreads scope(threads);
  const Metered meter(cost);
  return step();
}

// D^-1 from the level's diagonal `d`.
Values inverse_diagonal(Values d, std::size_t level) {
  // Inverted on all threads; the first entry that is not positive, if any, is named.
  auto bad = static_cast<std::int64_t>(d.size());
#pragma omp parallel for schedule(static) reduction(min : bad) if (d.size() > 100000)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(d.size()); ++i) {
    if (d[i] > 0) d[i] = 1.0 / d[i];
    else bad = std::min(bad, i);
  }
  if (bad < static_cast<std::int64_t>(d.size()))
    throw SolveFailure("diagonal entry " + std::to_string(d[bad]) + " of " +
                           (level == 0 ? "equation " + std::to_string(bad)
                                       : "the AMG level " + std::to_string(level) + " unknown " + std::to_string(bad)) +
                           " is not positive: the matrix is not positive definite",
                       level == 0 ? bad : -1);
  return d;
}

// The cores that copies to a device take while they run beside the setup: the staged uploads'
// copiers (kMaxCopiers in kernels/cuda/staged_upload.hpp; the fine level's Lanczos steps follow
// its copy on the thread of one of them).
constexpr int kCoresForCopies = 3;

// The threads of a step on a device: all but one core (left to the driver's and the system's
// threads: a parallel step with a range per thread waits for any thread they delay), and while
// copies to the device or its Lanczos steps run, all but the cores those take: more threads than
// cores stall a parallel step at each of its barriers (bench/results/2026-11-26-amg-setup.md).
int threads_on_device(int all, bool beside_copies) {
  if (all <= 2 * kCoresForCopies) return all;
  return beside_copies ? all - kCoresForCopies : all - 1;
}

// Whether `task` was started and is not done.
template <class Result>
bool running(const std::future<Result>& task) {
  return task.valid() && task.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
}

// The fine level's double blocks copied to a device that narrows them there (kept there for the
// Galerkin product), and the largest eigenvalue of D^-1 A found there from the single copy.
struct SpectrumOnBackend {
  double lambda_max = 0, copy_s = 0, lanczos_s = 0;
};

// The copy starts before D is known: `inv_diag` is read once `diagonal_known` is (a broken
// promise ends the task); `copied` is kept once the double copy is made (at once where
// `doubles_on_backend` holds the assembly's). The Lanczos steps' start is made on a thread of its own beside the copy.
SpectrumOnBackend spectrum_on_backend(const kernels::SparseBackend& backend, Level& level, const Values& inv_diag,
                                      const std::shared_future<void>& diagonal_known, const BlockSparse& doubles,
                                      std::shared_ptr<const kernels::SparseMatrix>& doubles_on_backend,
                                      std::promise<void>& copied) {
  auto start = std::async(std::launch::async, [&] {
    diagonal_known.get();
    return lanczos_start(backend, inv_diag);
  });
  SpectrumOnBackend found;
  Stopwatch watch;
  try {
    if (!doubles_on_backend) doubles_on_backend = backend.block_matrix(doubles);  // unless the assembly left them there
  } catch (...) {
    copied.set_exception(std::current_exception());
    throw;
  }
  copied.set_value();
  level.a_on_backend = backend.single_copy(*doubles_on_backend);
  found.copy_s = watch.restart();
  found.lambda_max = largest_eigenvalue(backend, *level.a_on_backend, start.get());
  found.lanczos_s = watch.seconds();
  return found;
}

}  // namespace

// T and A T of a level, and (A T)^T (which the damping does not change) where it was made while
// the Lanczos steps still ran on a device; otherwise R is made from P (R = P^T to the last bit
// either way).
struct Hierarchy::Transfer {
  TentativeProlongator tentative;
  BlockSparse at, at_transposed;
  bool transposed_early = false;
  // A T, P, R and P^T A P made on the device from its copy of A instead (the fine level there).
  std::unique_ptr<kernels::LevelTransfer> on_backend;
};

// The level's D^-1; for the fine level what the setup reads of its values, from the device that
// holds them (`on_device`, from `fine_on_device`, the assembly's copy there), the host reading
// them itself where the device gives none.
template <class Threads>
Values Hierarchy::level_diagonal(const kernels::SparseBackend& backend, const BlockSparse& a, bool fine_level,
                                 const kernels::SparseMatrix* fine_on_device, double threshold,
                                 std::optional<kernels::LevelValues>& on_device, const Threads& threads) {
  if (fine_level && fine_on_device)
    on_device = timed(steps_.diagonal, threads(), [&] { return backend.level_values(*fine_on_device, threshold); });
  if (fine_level && !on_device) values_to_host(a);
  return timed(steps_.diagonal, threads(), [&] {
    if (!on_device) return inverse_diagonal(diagonal(a), levels_.size() - 1);
    return inverse_diagonal(Values(on_device->diagonal.begin(), on_device->diagonal.end()), levels_.size() - 1);
  });
}

// The level's aggregates: with the fine level's blocks' norms where made (`fine_norms`, empty
// on the other levels), or from the strong blocks a device found (`on_device`, the fine level's).
template <class Threads>
Aggregates Hierarchy::level_aggregates(const BlockSparse& a, double threshold, const Values& fine_norms,
                                       const std::optional<kernels::LevelValues>& on_device, const Threads& threads) {
  return timed(steps_.aggregate, threads(), [&] {
    return aggregate(a, threshold, fine_norms, on_device ? &*on_device : nullptr);
  });
}

// T, then A T made on the device where it holds A's double copy (`fine_copied` valid: the fine
// level that a device narrows), or on the host while the Lanczos steps run on a device, and
// (A T)^T (which the damping does not change) if they still run then; otherwise R is made from P
// (R = P^T to the last bit either way).
template <class Running, class Threads>
void Hierarchy::make_tentative(const kernels::SparseBackend& backend, Transfer& transfer, const BlockSparse& a,
                               const Aggregates& aggregates, const kernels::LevelValues* on_device, NearNullSpace& b,
                               const std::shared_future<void>& fine_copied, const Running& lambda_sought_on_device,
                               const Threads& threads) {
  timed(steps_.prolongator, threads(), [&] {
    transfer.tentative =
        tentative_prolongator(aggregates, b, a.row_block, on_device ? on_device->decoupled : decoupled_equations(a));
    b = std::move(transfer.tentative.coarse);  // this level's near-null vectors are spent
    if (fine_copied.valid()) {
      fine_copied.get();  // rethrows the copy's failure
      transfer.on_backend = backend.level_transfer(*fine_on_backend_, transfer.tentative.t);
    }
    if (transfer.on_backend) {
      transfer.tentative.t = {};  // the device has its own
      return 0;
    }
    values_to_host(a);
    transfer.at = product(a, transfer.tentative.t);
    transfer.transposed_early = lambda_sought_on_device();
    if (transfer.transposed_early) transfer.at_transposed = transpose(transfer.at), ++restrictions_transposed_early_;
    return 0;
  });
}

// The largest eigenvalue of D^-1 A: found on the device beside the setup (`spectrum`), or by
// Lanczos steps on the host's single copy.
template <class Spectrum, class Threads>
double Hierarchy::level_eigenvalue(const kernels::SparseBackend& backend, std::unique_ptr<kernels::SparseBackend>& host,
                                   const BlockSparse& a, Level& level, const Values& inv_diag, std::future<Spectrum>& spectrum,
                                   const Threads& threads) {
  return timed(steps_.eigenvalue, threads(), [&] {
    if (spectrum.valid()) {
      const Spectrum found = spectrum.get();
      seconds_.upload_background += found.copy_s;
      seconds_.fine_copy_background = found.copy_s;
      seconds_.eigenvalue_background += found.lanczos_s;
      return found.lambda_max;
    }
    if (!host) host = backend.on_host() ? nullptr : kernels::make_sparse_backend("cpu");
    const kernels::SparseBackend& on_host = host ? *host : backend;
    return largest_eigenvalue(on_host, double_levels_ ? *on_host.block_matrix(a) : *on_host.block_matrix(level.a),
                              inv_diag);
  });
}

// P and R damped by omega = 4 / (3 lambda_max), the next level's operator P^T A P (returned), and
// P and R sent to the back-end.
template <class Threads>
BlockSparse Hierarchy::coarse_operator(const kernels::SparseBackend& backend, BackgroundUploads& uploads,
                                       const BlockSparse& a, Level& level, Transfer& transfer, const Values& inv_diag,
                                       double lambda_max, bool narrowed_on_backend, const Threads& threads) {
  const double omega = 4.0 / 3.0 / lambda_max;
  if (transfer.on_backend) return coarse_operator_on_backend(*transfer.on_backend, a, level, inv_diag, omega,
                                                             narrowed_on_backend, threads);
  // Where R is made: where the fine level's blocks are freed after the Galerkin product (which
  // reads P^T from P), after it, in their pages; in single precision on the host, as the transpose
  // of P's single copy once P's double blocks are freed (R never in double: a matrix of P's size
  // less at the setup's peak); elsewhere with P, in one pass.
  const bool transposed_early = transfer.transposed_early;
  const bool restriction_after = narrowed_on_backend && !transposed_early;
  const bool restriction_from_single = !double_levels_ && !backend.makes_single_copies();
  BlockSparse p, r;
  timed(steps_.prolongator, threads(), [&] {
    const BlockSparse& t = transfer.tentative.t;
    if (transposed_early) r = smoothed_restriction(std::move(transfer.at_transposed), t, inv_diag, omega);
    if (transposed_early || restriction_after || restriction_from_single)
      p = smoothed_prolongator(std::move(transfer.at), t, inv_diag, omega);
    else std::tie(p, r) = smoothed_prolongator_and_restriction(std::move(transfer.at), t, inv_diag, omega);
    return 0;
  });
  transfer.tentative.t = {};
  BlockSparse coarse = timed(steps_.galerkin, threads(), [&] {
    return galerkin_product(a, p, levels_.size() == 1 ? &fine_galerkin_threads_s_ : nullptr);
  });
  // The fine level's double blocks, once a device has made its own copy of them (the Lanczos
  // steps' wait above), are spent too: R and the coarser levels are made in their pages.
  if (narrowed_on_backend) fine_ = {};
  if (restriction_after) r = timed(steps_.prolongator, threads(), [&] { return transpose(p); });
  if (double_levels_) {  // multiplied as they are (the host's back-end reads them in place)
    uploads.start(spent_.emplace_back(std::move(p)), level.p_on_backend);
    uploads.start(spent_.emplace_back(std::move(r)), level.r_on_backend);
  } else if (backend.makes_single_copies()) {  // narrowed on the device
    uploads.start_narrowed(spent_.emplace_back(std::move(p)), level.p_on_backend);
    uploads.start_narrowed(spent_.emplace_back(std::move(r)), level.r_on_backend);
  } else {
    timed(steps_.convert, threads(), [&] {
      level.p = to_single(p);
      p = {};
      level.r = transpose(level.p);  // R = P^T to the last bit: rounding commutes with moving
      return 0;
    });
    uploads.start(level.p, level.p_on_backend);
    uploads.start(level.r, level.r_on_backend);
  }
  return coarse;
}

// P, R and P^T A P made on the device (P^T A P by the host from P where the device's product
// does not fit); P and R stay there in single precision.
template <class Threads>
BlockSparse Hierarchy::coarse_operator_on_backend(kernels::LevelTransfer& transfer, const BlockSparse& a, Level& level,
                                                  const Values& inv_diag, double omega, bool narrowed_on_backend,
                                                  const Threads& threads) {
  timed(steps_.prolongator, threads(), [&] {
    transfer.smooth(inv_diag, omega);
    return 0;
  });
  BlockSparse coarse = timed(steps_.galerkin, threads(), [&] {
    if (const auto upper = transfer.upper_galerkin_product()) {
      galerkin_on_device_ = true;
      return galerkin_from_upper(*upper);
    }
    values_to_host(a);
    return galerkin_product(a, transfer.prolongator());
  });
  if (narrowed_on_backend) fine_ = {};
  std::tie(level.p_on_backend, level.r_on_backend) = transfer.single_copies();
  return coarse;
}

const BlockSparse* Hierarchy::fine_in_blocks(SystemMatrix fine, int dofs_per_node, Values& norms, bool device_narrows) {
  if (device_narrows && !double_levels_) fine_on_backend_ = fine.blocks_on_device;
  fetch_fine_values_ = std::move(fine.fetch_values);
  if (!fine_on_backend_ && fine.blocks) values_to_host(*fine.blocks);  // copied to the device or read here
  if (fine.csr) {
    fine_ = to_block_sparse(*fine.csr, dofs_per_node, &norms);
    return &fine_;
  }
  if (fine.blocks->row_block != dofs_per_node || fine.blocks->col_block != dofs_per_node)
    throw std::invalid_argument("amg: node blocks of " + std::to_string(fine.blocks->row_block) + " x " +
                                std::to_string(fine.blocks->col_block) + " for " + std::to_string(dofs_per_node) +
                                " dofs per node");
  return fine.blocks;  // the aggregation takes the norms from the blocks as it reads them
}

void Hierarchy::values_to_host(const BlockSparse& a) {
  if (fetch_fine_values_ && a.val.empty()) std::exchange(fetch_fine_values_, nullptr)();
}

Hierarchy::Hierarchy(const kernels::SparseBackend& backend, SystemMatrix fine, const NodeLayout& nodes,
                     const AmgOptions& options, bool keep_fine_operator)
    : double_levels_(options.precision == AmgPrecision::Double) {
  const Metered whole(steps_.total);
  const int all_threads = omp_get_max_threads();
  // The threads of a step: every core on the host, on a device as threads_on_device() says.
  const auto step_threads = [&](bool beside_copies) {
    return backend.on_host() ? all_threads : threads_on_device(all_threads, beside_copies);
  };
  BackgroundUploads uploads(backend);
  NearNullSpace b = timed(steps_.near_null, step_threads(false), [&] { return near_null_space(nodes, fine.rows()); });
  near_null_vectors_ = b.vectors;
  rigid_body_modes_ = b.rigid_body_modes;
  // The operator of the level being built, in double: the setup's products need the precision.
  Values fine_block_norms;  // squared norms of the fine blocks, for the aggregation
  const BlockSparse* const fine_blocks = timed(steps_.convert, step_threads(false), [&] {
    return fine_in_blocks(fine, nodes.dofs_per_node, fine_block_norms, backend.makes_single_copies());
  });
  const BlockSparse* current = fine_blocks;
  const std::shared_ptr<const kernels::SparseMatrix> fine_from_assembly = fine_on_backend_;  // tested there at once
  BlockSparse coarser;  // the operator of a level below the fine one
  bool fine_sent = false;
  std::unique_ptr<kernels::SparseBackend> host;  // the host's back-end, for a device's coarse levels
  for (;;) {
    const BlockSparse& a = *current;
    levels_.push_back(std::make_unique<Level>());
    Level& level = *levels_.back();
    const std::int64_t rows = a.rows();
    // A smoothed level's A goes to the back-end (a level above a dense factor's size is smoothed:
    // it starts at once). The fine level that a device narrows travels in double, from before its
    // diagonal is known, and its Lanczos steps run there, on a thread of their own beside the
    // aggregation, T and A T; the other levels' Lanczos steps run on the host's single copy
    // (small beside the fine one; on a device they would wait behind the copies of the level above).
    const bool narrowed_on_backend = levels_.size() == 1 && backend.makes_single_copies() && !double_levels_;
    Values inv_diag;
    std::future<SpectrumOnBackend> spectrum;
    std::promise<void> diagonal_known;  // destroyed before `spectrum` waits: a broken promise ends its task
    std::promise<void> fine_copy_made;     // and its future, where the fine operator's double copy is on its way:
    std::shared_future<void> fine_copied;
    bool sent = false;
    const auto send = [&] {
      sent = true;
      // Double blocks go from `a` itself: the fine operator, or a coarser one kept in spent_.
      if (double_levels_) return uploads.start(a, level.a_on_backend);
      if (!narrowed_on_backend) return uploads.start(level.a, level.a_on_backend);
      fine_sent = true;
      fine_copied = fine_copy_made.get_future().share();
      spectrum = std::async(std::launch::async, [&, known = diagonal_known.get_future().share()] {
        return spectrum_on_backend(backend, level, inv_diag, known, *fine_blocks, fine_on_backend_, fine_copy_made);
      });
    };
    // The threads of the level's next step (on a device fewer while copies or the Lanczos steps run).
    const auto threads = [&] { return step_threads(!uploads.idle() || running(spectrum)); };
    if (narrowed_on_backend && rows > kMaxDenseCoarse) send();
    std::optional<kernels::LevelValues> on_device;  // the fine level's, where the device holds them
    inv_diag = level_diagonal(backend, a, current == fine_blocks, fine_from_assembly.get(), options.strength_threshold,
                              on_device, threads);
    diagonal_known.set_value();
    level.rows = rows;
    level.nnz = a.nnz();
    if (options.smoother == AmgSmoother::L1Jacobi) values_to_host(a), level.l1_row_sums = absolute_row_sums(a);
    // The single copy the V-cycle multiplies with, which the Lanczos steps use too (half the bytes);
    // a device that narrows the fine operator's double blocks itself makes it from the Krylov
    // method's copy (no host copy, half the bytes over the bus).
    if (!narrowed_on_backend && !double_levels_) level.a = timed(steps_.convert, threads(), [&] { return to_single(a); });
    if (!sent && rows > kMaxDenseCoarse) send();
    Aggregates aggregates;
    if (rows > options.coarse_size && levels_.size() < kMaxLevels)
      aggregates = level_aggregates(a, options.strength_threshold, fine_block_norms, on_device, threads);
    // Each large temporary is freed as soon as it is spent, where no copy reads it: its pages go
    // to the large-block cache and the next steps' arrays are made in them (no page faults).
    fine_block_norms = Values();
    const bool coarsest = aggregates.count == 0 || aggregates.count * b.vectors > kStalled * static_cast<double>(rows);
    if (coarsest && rows <= kMaxDenseCoarse) {
      values_to_host(a);
      coarse_ = timed(steps_.coarse, threads(), [&] { return std::make_unique<CoarseSolver>(a); });
      break;
    }
    if (!sent) send();
    Transfer transfer;
    if (!coarsest)
      make_tentative(backend, transfer, a, aggregates, on_device ? &*on_device : nullptr, b, fine_copied,
                     [&] { return running(spectrum); }, threads);
    const double lambda_max = level_eigenvalue(backend, host, a, level, inv_diag, spectrum, threads);
    // A Krylov operator that the device does not narrow follows the fine level's A.
    if (keep_fine_operator && !fine_sent) uploads.start(*fine_blocks, fine_uploaded_), fine_sent = true;
    BlockSparse coarse;
    if (!coarsest)
      coarse = coarse_operator(backend, uploads, a, level, transfer, inv_diag, lambda_max, narrowed_on_backend, threads);
    if (!keep_fine_operator) fine_on_backend_.reset();  // its Galerkin product is made
    level.inv_diag = std::move(inv_diag);
    level.lambda_max = lambda_max;
    if (coarsest) break;
    if (double_levels_) {
      current = &spent_.emplace_back(std::move(coarse));  // the V-cycle multiplies with it
    } else {
      coarser = std::move(coarse);  // the level above's double blocks are spent (its single copy is kept)
      current = &coarser;
    }
  }
  finish_uploads(uploads, keep_fine_operator && !fine_sent ? fine_blocks : nullptr);
}

void Hierarchy::finish_uploads(BackgroundUploads& uploads, const BlockSparse* fine_to_send) {
  if (fine_to_send) values_to_host(*fine_to_send), uploads.start(*fine_to_send, fine_uploaded_);  // a fine level solved by Cholesky
  uploads.wait_all();
  if (fine_uploaded_) fine_on_backend_ = std::move(fine_uploaded_);
  seconds_.upload = uploads.waited_s();
  seconds_.upload_background += uploads.copying_s();
}

std::map<std::string, double> Hierarchy::figures() const {
  double nnz = 0, rows = 0;
  for (const auto& level : levels_) nnz += static_cast<double>(level->nnz), rows += static_cast<double>(level->rows);
  const Level& fine = *levels_.front();
  std::map<std::string, double> figures{
          {"amg_levels", static_cast<double>(levels_.size())},
          {"amg_operator_complexity", nnz / static_cast<double>(fine.nnz)},
          {"amg_grid_complexity", rows / static_cast<double>(fine.rows)},
          {"amg_coarsest_unknowns", static_cast<double>(levels_.back()->rows)},
          {"amg_near_null_vectors", near_null_vectors_},
          {"amg_rigid_body_modes", rigid_body_modes_ ? 1.0 : 0.0},
          {"amg_single_precision", double_levels_ ? 0.0 : 1.0},
          {"amg_setup_upload_s", seconds_.upload},
          {"amg_setup_upload_background_s", seconds_.upload_background},
          {"amg_setup_fine_copy_background_s", seconds_.fine_copy_background},
          {"amg_setup_restrictions_transposed_early", restrictions_transposed_early_},
          {"amg_setup_galerkin_fine_on_device", galerkin_on_device_ ? 1.0 : 0.0},
          {"amg_setup_eigenvalue_background_s", seconds_.eigenvalue_background},
          {"amg_setup_reused_bytes", steps_.total.reused_bytes}};
  double accounted = seconds_.upload;
  const std::pair<const char*, const StepCost&> steps[] = {
      {"near_null", steps_.near_null},     {"convert", steps_.convert},         {"diagonal", steps_.diagonal},
      {"aggregate", steps_.aggregate},     {"eigenvalue", steps_.eigenvalue},   {"prolongator", steps_.prolongator},
      {"galerkin", steps_.galerkin},       {"coarse", steps_.coarse}};
  for (const auto& [name, cost] : steps) {
    const std::string prefix = std::string("amg_setup_") + name;
    figures[prefix + "_s"] = cost.seconds;
    figures[prefix + "_page_faults"] = cost.page_faults;
    figures[prefix + "_mapped_bytes"] = cost.mapped_bytes;
    accounted += cost.seconds;
  }
  if (!fine_galerkin_threads_s_.empty()) {
    const auto [fastest, slowest] = std::minmax_element(fine_galerkin_threads_s_.begin(), fine_galerkin_threads_s_.end());
    figures["amg_setup_galerkin_fine_threads"] = static_cast<double>(fine_galerkin_threads_s_.size());
    figures["amg_setup_galerkin_fine_thread_min_s"] = *fastest;
    figures["amg_setup_galerkin_fine_thread_max_s"] = *slowest;
  }
  figures["amg_setup_s"] = steps_.total.seconds;
  figures["amg_setup_page_faults"] = steps_.total.page_faults;
  figures["amg_setup_mapped_bytes"] = steps_.total.mapped_bytes;
  figures["amg_setup_other_s"] = steps_.total.seconds - accounted;
  return figures;
}

std::shared_ptr<const kernels::SparseMatrix> Hierarchy::take_fine_operator() { return std::move(fine_on_backend_); }

std::size_t Hierarchy::bytes() const {
  std::size_t total = (coarse_ ? coarse_->bytes() : 0) + fine_.bytes() +
                      (fine_on_backend_ ? fine_on_backend_->device_bytes() : 0);
  for (const auto& m : spent_) total += m.bytes();
  for (const auto& level : levels_) {
    total += level->a.bytes() + level->p.bytes() + level->r.bytes() +
             (level->inv_diag.size() + level->l1_row_sums.size()) * sizeof(double);
    for (const auto* m : {level->a_on_backend.get(), level->p_on_backend.get(), level->r_on_backend.get()})
      if (m) total += m->device_bytes();
  }
  return total;
}

}  // namespace fem::amg

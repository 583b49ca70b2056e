#include "solvers/multifrontal/numeric_factorisation.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "kernels/shared/blas_calls.hpp"
#include "solvers/linear_solver.hpp"
#include "support/first_failure.hpp"

namespace fem::multifrontal {

namespace {

using kernels::DeviceMatrix;

// Fronts with more update rows than this use every thread for their assembly when the
// supernode runs alone (above the subtrees).
constexpr std::int64_t kRowsWorthThreads = 256;

// A stretch of a child's update rows that land on consecutive rows of the parent's front.
struct Run {
  std::int64_t first, length;
};

// What one thread needs: where each equation sits in the current front, and the stack its
// subtrees' update matrices live on (allocated once, so its pages are touched once: fresh
// pages cost more than the extend-add itself).
template <class T>
struct Scratch {
  std::int32_t front = -1;              // the supernode whose rows `position` holds
  std::vector<std::int32_t> position;   // per equation (new numbering)
  std::vector<std::int32_t> relative;   // a child's update rows, as rows of the parent's front
  std::vector<Run> runs;
  std::vector<double> diagonal;         // the original diagonal of the supernode's equations
  double smallest_pivot_ratio = std::numeric_limits<double>::infinity();
  std::int32_t smallest_pivot_equation = -1;
  std::unique_ptr<T[]> stack;
  std::int64_t height = 0;              // entries in use on the stack
};

template <class T>
class Factorisation {
 public:
  Factorisation(const SymbolicFactor& f, const CsrMatrix& a, kernels::DenseBackend& dense, ProgressMeter* progress)
      : f_(f), a_(a), dense_(dense), progress_(progress), update_(f.supernodes(), nullptr), owned_(f.supernodes()), on_stack_(f.supernodes(), 0),
        children_offset_(f.supernodes() + 1, 0) {
    for (std::int32_t s = 0; s < f.supernodes(); ++s)
      if (f.parent[s] >= 0) ++children_offset_[f.parent[s] + 1];
    for (std::int32_t s = 0; s < f.supernodes(); ++s) children_offset_[s + 1] += children_offset_[s];
    children_.resize(children_offset_.back());
    std::vector<std::int64_t> next(children_offset_.begin(), children_offset_.end() - 1);
    for (std::int32_t s = 0; s < f.supernodes(); ++s)
      if (f.parent[s] >= 0) children_[next[f.parent[s]]++] = s;
    scratch_.resize(f.threads);
    for (auto& s : scratch_) s.position.assign(f.equations, -1);
  }

  NumericFactor<T> run() {
    NumericFactor<T> result;
    result.panels.reset(new T[f_.factor_entries()]);
    panels_ = result.panels.get();
    run_subtrees();
    for (std::int32_t s : f_.schedule.top) {
      update_[s] = own(s, f_.update_entries(s));
      eliminate(s, scratch_[0]);
      count_done(s);
    }
    result.update_peak_entries = peak_;
    if (!f_.schedule.device.empty()) result.device_bound_updates = std::move(owned_);  // the others are released
    for (const auto& s : scratch_)
      if (s.smallest_pivot_ratio < result.smallest_pivot_ratio) {
        result.smallest_pivot_ratio = s.smallest_pivot_ratio;
        result.smallest_pivot_equation = s.smallest_pivot_equation;
      }
    return result;
  }

 private:
  // The subtrees as OpenMP tasks, each on one thread's stack with one-thread BLAS.
  void run_subtrees() {
    FirstFailure failure;
    const kernels::blas::OneBlasThreadPerCall one_thread;
    const auto& schedule = f_.schedule;
    for (auto& s : scratch_) s.stack.reset(new T[f_.stack_entries]);
    track(f_.threads * f_.stack_entries);
#pragma omp parallel num_threads(f_.threads)
#pragma omp single
    for (std::size_t t = 0; t < schedule.subtree_root.size(); ++t) {
#pragma omp task firstprivate(t) shared(failure, schedule)
      failure.run([&] {
        Scratch<T>& scratch = scratch_[omp_get_thread_num()];
        const std::int32_t root = schedule.subtree_root[t];
        for (std::int32_t s = schedule.subtree_first[t]; s <= root && !failure.failed(); ++s) {
          if (s == root) {  // its update waits for the top of the tree in an array of its own
            update_[s] = own(s, f_.update_entries(s));
          } else {
            update_[s] = scratch.stack.get() + scratch.height;
            on_stack_[s] = 1;
            scratch.height += f_.update_entries(s);
          }
          eliminate(s, scratch);
          count_done(s);
        }
        scratch.height = 0;
      });
    }
    for (auto& s : scratch_) s.stack.reset();
    track(-f_.threads * f_.stack_entries);
    failure.rethrow_if_failed();
  }

  // Assembles supernode s's front (its panel and its update matrix, already placed at
  // update_[s]), eliminates its pivots and leaves the update for the parent.
  void eliminate(std::int32_t s, Scratch<T>& scratch) {
    const std::int64_t k = f_.columns(s), m = f_.front(s), r = m - k;
    const std::int32_t first = f_.first[s];
    const std::int32_t* rows = f_.rows.data() + f_.row_offset[s];
    for (std::int64_t i = 0; i < m; ++i) scratch.position[rows[i]] = static_cast<std::int32_t>(i);
    scratch.front = s;

    T* panel = panels_ + f_.panel_offset[s];
    std::fill(panel, panel + m * k, T(0));
    T* update = update_[s];
    // Only the lower triangle of an update matrix is ever written or read.
#pragma omp parallel for schedule(static) if (!omp_in_parallel() && r > kRowsWorthThreads)
    for (std::int64_t i = 0; i < r; ++i) std::fill(update + i * r, update + i * r + i + 1, T(0));

    // The original entries of the supernode's columns, lower triangle (row i >= column j).
    scratch.diagonal.assign(k, 0.0);
    for (std::int32_t j = first; j < first + k; ++j) {
      const std::int32_t old = f_.old_of_new[j];
      for (auto e = a_.row_ptr[old]; e < a_.row_ptr[old + 1]; ++e) {
        const std::int32_t i = f_.new_of_old[a_.col[e]];
        if (i >= j) panel[scratch.position[i] * k + (j - first)] += static_cast<T>(a_.val[e]);
        if (i == j) scratch.diagonal[j - first] = a_.val[e];
      }
    }
    const auto c_begin = children_offset_[s], c_end = children_offset_[s + 1];
    for (auto c = c_begin; c < c_end; ++c) extend_add(children_[c], k, panel, update, scratch);
    for (auto c = c_begin; c < c_end; ++c) release(children_[c]);
    // On a stack, the update moves down over its children's, now consumed.
    if (c_begin < c_end && on_stack_[s]) {
      T* lowest = update_[children_[c_begin]];
      for (auto c = c_begin; c < c_end; ++c) lowest = std::min(lowest, update_[children_[c]]);
      for (std::int64_t i = 0; i < r; ++i) std::memmove(lowest + i * r, update + i * r, (i + 1) * sizeof(T));
      update = update_[s] = lowest;
      scratch.height = (lowest - scratch.stack.get()) + r * r;
    }

    const DeviceMatrix<T> front = dense_.wrap(panel, m, k, k);
    const DeviceMatrix<T> pivots = front.block(0, 0, k, k);
    try {
      dense_.potrf(pivots);
    } catch (const kernels::NotPositiveDefinite& e) {
      const std::int32_t equation = f_.old_of_new[first + e.column()];
      throw SolveFailure("multifrontal: the pivot of equation " + std::to_string(equation) +
                             " is not positive: the system is not positive definite (a body free to move, or a bad "
                             "material?)",
                         equation);
    }
    watch_pivots(s, panel, scratch);
    if (r > 0) {
      const DeviceMatrix<T> below = front.block(k, 0, r, k);
      dense_.trsm(kernels::Side::right, kernels::Op::transpose, pivots, below);
      dense_.syrk(T(-1), below, T(1), dense_.wrap(update, r, r, r));
    }
  }

  // The pivots against their equations' original diagonal: the smallest ratio points at the
  // equation a singular system (a body free to move) hides behind a rounding-sized pivot.
  void watch_pivots(std::int32_t s, const T* panel, Scratch<T>& scratch) const {
    const std::int64_t k = f_.columns(s);
    for (std::int64_t c = 0; c < k; ++c) {
      const double ratio = static_cast<double>(panel[c * k + c]) * panel[c * k + c] / scratch.diagonal[c];
      if (ratio < scratch.smallest_pivot_ratio) {
        scratch.smallest_pivot_ratio = ratio;
        scratch.smallest_pivot_equation = f_.old_of_new[f_.first[s] + c];
      }
    }
  }

  // Adds the child's update matrix (lower triangle) into this front: into the panel where its
  // columns are among the pivots (the first k rows of the front), into the update matrix
  // (rows and columns from k on) elsewhere. The child's rows map to runs of consecutive rows of
  // the front (a node's equations at least), added as contiguous stretches.
  void extend_add(std::int32_t child, std::int64_t k, T* panel, T* update, Scratch<T>& scratch) const {
    const std::int64_t rc = f_.front(child) - f_.columns(child), r = f_.front(scratch.front) - k;
    const std::int32_t* child_rows = f_.rows.data() + f_.row_offset[child] + f_.columns(child);
    auto& relative = scratch.relative;
    auto& runs = scratch.runs;
    relative.resize(rc);
    std::int64_t into_panel = 0;  // the child's columns that land among this front's pivots
    for (std::int64_t x = 0; x < rc; ++x) {
      relative[x] = scratch.position[child_rows[x]];
      if (relative[x] < k) into_panel = x + 1;
    }
    runs.clear();
    for (std::int64_t y = 0; y < rc; ++y)
      if (y == 0 || y == into_panel || relative[y] != relative[y - 1] + 1) runs.push_back({y, 1});
      else ++runs.back().length;
    const T* from = update_[child];
#pragma omp parallel for schedule(dynamic, 32) if (!omp_in_parallel() && rc > kRowsWorthThreads)
    for (std::int64_t x = 0; x < rc; ++x) {
      const std::int64_t row = relative[x];
      const T* source = from + x * rc;
      for (const Run& run : runs) {
        if (run.first > x) break;
        const std::int64_t length = std::min(run.length, x + 1 - run.first);
        T* target = run.first < into_panel ? panel + row * k + relative[run.first]
                                           : update + (row - k) * r + (relative[run.first] - k);
        const T* added = source + run.first;
        for (std::int64_t t = 0; t < length; ++t) target[t] += added[t];
      }
    }
  }

  // Supernode s is factorised: whichever thread finds the meter free tells it how far the
  // factorisation has come (the others go on without waiting).
  void count_done(std::int32_t s) {
    if (!progress_) return;
    const std::int64_t fronts = ++fronts_done_;
    const double flops = flops_done_.fetch_add(f_.flops_of(s)) + f_.flops_of(s);
    const std::unique_lock<std::mutex> free(progress_lock_, std::try_to_lock);
    if (free && f_.flops > 0) progress_->steps("fronts", fronts, f_.supernodes(), flops / f_.flops);
  }

  // An update matrix in an array of its own (a subtree root's, or one above the subtrees).
  T* own(std::int32_t s, std::int64_t entries) {
    owned_[s].reset(entries > 0 ? new T[entries] : nullptr);
    track(entries);
    return owned_[s].get();
  }

  void release(std::int32_t s) {
    if (on_stack_[s]) return;  // the parent's update moves over it
    owned_[s].reset();
    track(-f_.update_entries(s));
  }

  void track(std::int64_t entries) {
    const std::int64_t now = live_ += entries;
    std::int64_t peak = peak_.load();
    while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
    }
  }

  const SymbolicFactor& f_;
  const CsrMatrix& a_;
  kernels::DenseBackend& dense_;
  ProgressMeter* progress_;
  std::mutex progress_lock_;                    // one thread at a time talks to progress_
  std::atomic<std::int64_t> fronts_done_{0};
  std::atomic<double> flops_done_{0};
  T* panels_ = nullptr;
  std::vector<T*> update_;                      // where each supernode's update matrix is
  std::vector<std::unique_ptr<T[]>> owned_;     // those not on a stack
  std::vector<char> on_stack_;
  std::vector<std::int64_t> children_offset_;
  std::vector<std::int32_t> children_;
  std::vector<Scratch<T>> scratch_;             // one per thread
  std::atomic<std::int64_t> live_{0}, peak_{0};
};

}  // namespace

template <class T>
NumericFactor<T> factorise(const SymbolicFactor& symbolic, const CsrMatrix& matrix, kernels::DenseBackend& dense,
                           ProgressMeter* progress) {
  return Factorisation<T>(symbolic, matrix, dense, progress).run();
}

template NumericFactor<double> factorise<double>(const SymbolicFactor&, const CsrMatrix&, kernels::DenseBackend&,
                                                 ProgressMeter*);
template NumericFactor<float> factorise<float>(const SymbolicFactor&, const CsrMatrix&, kernels::DenseBackend&,
                                               ProgressMeter*);

}  // namespace fem::multifrontal

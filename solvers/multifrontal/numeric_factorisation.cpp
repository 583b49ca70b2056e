#include "solvers/multifrontal/numeric_factorisation.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <string>
#include <vector>

#include "solvers/direct/blas_backend.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::multifrontal {

namespace {

using kernels::DeviceMatrix;

// What one thread needs to assemble a front: where each equation sits in the current front.
struct Scratch {
  std::vector<std::int32_t> position;   // per equation (new numbering)
  std::vector<std::int32_t> relative;   // a child's update rows, as rows of the parent's front
};

template <class T>
class Factorisation {
 public:
  Factorisation(const SymbolicFactor& f, const CsrMatrix& a, kernels::DenseBackend& dense)
      : f_(f), a_(a), dense_(dense), updates_(f.supernodes()), children_offset_(f.supernodes() + 1, 0) {
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
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    {
      const band::OneBlasThreadPerCall one_thread;  // the subtrees' parallelism is the tasks'
      const auto& schedule = f_.schedule;
#pragma omp parallel num_threads(f_.threads)
#pragma omp single
      for (std::size_t t = 0; t < schedule.subtree_root.size(); ++t) {
#pragma omp task firstprivate(t) shared(failure, failed, schedule)
        {
          try {
            for (std::int32_t s = schedule.subtree_first[t]; s <= schedule.subtree_root[t] && !failed; ++s)
              eliminate(s, scratch_[omp_get_thread_num()]);
          } catch (...) {
#pragma omp critical(multifrontal_failure)
            if (!failure) failure = std::current_exception();
            failed = true;
          }
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
    for (std::int32_t s : f_.schedule.top) eliminate(s, scratch_[0]);
    result.update_peak_entries = peak_;
    return result;
  }

 private:
  void eliminate(std::int32_t s, Scratch& scratch) {
    const std::int64_t k = f_.columns(s), m = f_.front(s), r = m - k;
    const std::int32_t first = f_.first[s];
    const std::int32_t* rows = f_.rows.data() + f_.row_offset[s];
    auto& position = scratch.position;
    for (std::int64_t i = 0; i < m; ++i) position[rows[i]] = static_cast<std::int32_t>(i);

    T* panel = panels_ + f_.panel_offset[s];
    std::fill(panel, panel + m * k, T(0));
    std::unique_ptr<T[]> update(r > 0 ? new T[r * r]() : nullptr);
    track(r * r);

    // The original entries of the supernode's columns, lower triangle (row i >= column j).
    for (std::int32_t j = first; j < first + k; ++j) {
      const std::int32_t old = f_.old_of_new[j];
      for (auto e = a_.row_ptr[old]; e < a_.row_ptr[old + 1]; ++e) {
        const std::int32_t i = f_.new_of_old[a_.col[e]];
        if (i >= j) panel[position[i] * k + (j - first)] += static_cast<T>(a_.val[e]);
      }
    }
    // Extend-add: each child's update matrix, its rows mapped into this front.
    for (auto c = children_offset_[s]; c < children_offset_[s + 1]; ++c) {
      const std::int32_t child = children_[c];
      const std::int64_t rc = f_.front(child) - f_.columns(child);
      const std::int32_t* child_rows = f_.rows.data() + f_.row_offset[child] + f_.columns(child);
      auto& relative = scratch.relative;
      relative.resize(rc);
      std::int64_t into_panel = 0;  // the child's columns that land among this front's pivots
      for (std::int64_t x = 0; x < rc; ++x) {
        relative[x] = position[child_rows[x]];
        if (relative[x] < k) into_panel = x + 1;
      }
      const T* from = updates_[child].get();
      for (std::int64_t x = 0; x < rc; ++x) {
        const std::int64_t row = relative[x];
        const T* source = from + x * rc;
        const std::int64_t split = std::min(into_panel, x + 1);
        for (std::int64_t y = 0; y < split; ++y) panel[row * k + relative[y]] += source[y];
        if (split > x) continue;
        T* target = update.get() + (row - k) * r;  // row >= k here: it is at least relative[split]
        for (std::int64_t y = split; y <= x; ++y) target[relative[y] - k] += source[y];
      }
      updates_[child].reset();
      track(-rc * rc);
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
    if (r > 0) {
      const DeviceMatrix<T> below = front.block(k, 0, r, k);
      dense_.trsm(kernels::Side::right, kernels::Op::transpose, pivots, below);
      dense_.syrk(T(-1), below, T(1), dense_.wrap(update.get(), r, r, r));
    }
    updates_[s] = std::move(update);
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
  T* panels_ = nullptr;
  std::vector<std::unique_ptr<T[]>> updates_;   // alive from a front's elimination to its parent's
  std::vector<std::int64_t> children_offset_;
  std::vector<std::int32_t> children_;
  std::vector<Scratch> scratch_;                // one per thread
  std::atomic<std::int64_t> live_{0}, peak_{0};
};

}  // namespace

template <class T>
NumericFactor<T> factorise(const SymbolicFactor& symbolic, const CsrMatrix& matrix, kernels::DenseBackend& dense) {
  return Factorisation<T>(symbolic, matrix, dense).run();
}

template NumericFactor<double> factorise<double>(const SymbolicFactor&, const CsrMatrix&, kernels::DenseBackend&);
template NumericFactor<float> factorise<float>(const SymbolicFactor&, const CsrMatrix&, kernels::DenseBackend&);

}  // namespace fem::multifrontal

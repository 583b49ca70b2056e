#include "solvers/multifrontal/supernodal_solve.hpp"

#include <omp.h>

#include <stdexcept>

namespace fem::multifrontal {

namespace {

// Rows below a front's own columns updated by more threads at once take atomic adds (their
// supernodes lie above the subtree); a large front's own rows are shared out among threads.
constexpr std::int64_t kSharedFrontRows = 256;

// One supernode's forward step for `Fixed` right-hand sides known at compile time (one: the sums
// stay in registers) or, with Fixed = 0, for `r` of them: L11 Y = B, then B_below -= L21 Y.
// Rows from `shared_from` on are updated by atomic adds; `split` shares the rows below among
// the threads of an enclosing parallel region.
template <class T, int Fixed>
void forward(const SymbolicFactor& f, const T* panels, std::int32_t s, T* x, std::int64_t r, std::int64_t shared_from,
             bool split) {
  const std::int64_t k = f.columns(s), m = f.front(s);
  const T* l = panels + f.panel_offset[s];  // row i of the front at l + i * k
  const std::int32_t* rows = f.rows.data() + f.row_offset[s];
  T* __restrict own = x + f.first[s] * r;
  // Accumulate in double whatever the factor's precision: the refinement needs its best.
  std::vector<double> runtime_sum(Fixed > 0 ? 0 : r);
  double fixed_sum[Fixed > 0 ? Fixed : 1];
  double* __restrict sum = Fixed > 0 ? fixed_sum : runtime_sum.data();
  if (!split || omp_get_thread_num() == 0)
    for (std::int64_t i = 0; i < k; ++i) {
      for (std::int64_t c = 0; c < r; ++c) sum[c] = own[i * r + c];
      for (std::int64_t j = 0; j < i; ++j) {
        const double lij = l[i * k + j];
        for (std::int64_t c = 0; c < r; ++c) sum[c] -= lij * own[j * r + c];
      }
      for (std::int64_t c = 0; c < r; ++c) own[i * r + c] = static_cast<T>(sum[c] / l[i * k + i]);
    }
  if (split) {
#pragma omp barrier
  }
  const auto below_row = [&](std::int64_t i) {
    for (std::int64_t c = 0; c < r; ++c) sum[c] = 0;
    for (std::int64_t j = 0; j < k; ++j) {
      const double lij = l[i * k + j];
      for (std::int64_t c = 0; c < r; ++c) sum[c] += lij * own[j * r + c];
    }
    T* below = x + static_cast<std::int64_t>(rows[i]) * r;
    if (rows[i] >= shared_from)
      for (std::int64_t c = 0; c < r; ++c) {
#pragma omp atomic
        below[c] -= static_cast<T>(sum[c]);
      }
    else
      for (std::int64_t c = 0; c < r; ++c) below[c] -= static_cast<T>(sum[c]);
  };
  if (split) {
#pragma omp for schedule(static)
    for (std::int64_t i = k; i < m; ++i) below_row(i);
  } else {
    for (std::int64_t i = k; i < m; ++i) below_row(i);
  }
}

// One supernode's backward step: Y -= L21ᵀ X_below, then L11ᵀ X = Y. `split` shares the first
// part's columns among the threads of an enclosing parallel region (each its own block of own).
template <class T>
void backward(const SymbolicFactor& f, const T* panels, std::int32_t s, T* x, std::int64_t r, bool split) {
  const std::int64_t k = f.columns(s), m = f.front(s);
  const T* l = panels + f.panel_offset[s];
  const std::int32_t* rows = f.rows.data() + f.row_offset[s];
  T* __restrict own = x + f.first[s] * r;
  std::int64_t j0 = 0, j1 = k;
  if (split) {
    const std::int64_t threads = omp_get_num_threads(), t = omp_get_thread_num();
    j0 = k * t / threads;
    j1 = k * (t + 1) / threads;
  }
  for (std::int64_t i = k; i < m; ++i) {  // row by row: each reads one row of L21
    const T* below = x + static_cast<std::int64_t>(rows[i]) * r;
    for (std::int64_t j = j0; j < j1; ++j) {
      const T lij = l[i * k + j];
      for (std::int64_t c = 0; c < r; ++c) own[j * r + c] -= lij * below[c];
    }
  }
  if (split) {
#pragma omp barrier
    if (omp_get_thread_num() != 0) return;
  }
  for (std::int64_t i = k - 1; i >= 0; --i) {  // L11ᵀ X = Y, column i of L11ᵀ is row i of L11
    for (std::int64_t c = 0; c < r; ++c) own[i * r + c] /= l[i * k + i];
    for (std::int64_t j = 0; j < i; ++j) {
      const T lij = l[i * k + j];
      for (std::int64_t c = 0; c < r; ++c) own[j * r + c] -= lij * own[i * r + c];
    }
  }
}

// The sweeps along the factorisation's schedule: its independent subtrees in parallel (a
// subtree's updates above itself by atomic adds), the supernodes above them one at a time with
// a large front's rows shared among the threads; the device's part in between.
template <class T, int Fixed>
void sweep(const SymbolicFactor& f, const T* panels, DevicePart<T>* device, std::vector<T>& x, std::int64_t count) {
  const std::int64_t r = Fixed > 0 ? Fixed : count;
  const TreeSchedule& schedule = f.schedule;
  const auto subtrees = static_cast<std::int64_t>(schedule.subtree_root.size());
  T* values = x.data();
  const auto subtree_end = [&](std::int64_t t) { return static_cast<std::int64_t>(f.first[schedule.subtree_root[t] + 1]); };
  const auto large = [&](std::int32_t s) { return f.front(s) - f.columns(s) >= kSharedFrontRows || f.columns(s) >= kSharedFrontRows; };
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < subtrees; ++t)
    for (std::int32_t s = schedule.subtree_first[t]; s <= schedule.subtree_root[t]; ++s)
      forward<T, Fixed>(f, panels, s, values, r, subtree_end(t), false);
  const std::int64_t none_shared = f.equations;  // above the subtrees one supernode runs at a time
  for (std::int32_t s : schedule.top) {
    if (!large(s)) {
      forward<T, Fixed>(f, panels, s, values, r, none_shared, false);
      continue;
    }
#pragma omp parallel
    forward<T, Fixed>(f, panels, s, values, r, none_shared, true);
  }
  if (device) device->substitute(x);
  for (auto it = schedule.top.rbegin(); it != schedule.top.rend(); ++it) {
    if (!large(*it)) {
      backward(f, panels, *it, values, r, false);
      continue;
    }
#pragma omp parallel
    backward(f, panels, *it, values, r, true);
  }
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < subtrees; ++t)
    for (std::int32_t s = schedule.subtree_root[t]; s >= schedule.subtree_first[t]; --s)
      backward(f, panels, s, values, r, false);
}

}  // namespace

template <class T>
void substitute(const SymbolicFactor& f, const T* panels, DevicePart<T>* device, std::vector<T>& x, int count) {
  if (device && count != 1) throw std::logic_error("multifrontal: the device part substitutes one vector at a time");
  if (count == 1) sweep<T, 1>(f, panels, device, x, 1);
  else sweep<T, 0>(f, panels, device, x, count);
}

template void substitute<double>(const SymbolicFactor&, const double*, DevicePart<double>*, std::vector<double>&, int);
template void substitute<float>(const SymbolicFactor&, const float*, DevicePart<float>*, std::vector<float>&, int);

}  // namespace fem::multifrontal

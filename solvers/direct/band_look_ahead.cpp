#include "solvers/direct/band_look_ahead.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "kernels/device_matrix.hpp"
#include "kernels/shared/blas_calls.hpp"
#include "support/first_failure.hpp"

namespace fem::band {

namespace blas = kernels::blas;

namespace {

// The fewest rows of a piece of the trailing update (below, the pieces shrink as guided
// scheduling's do): each BLAS call packs its whole right operand again, so pieces stay large.
index_t piece_rows(index_t block) { return std::max<index_t>(block, 64); }

// The band as a row-major matrix: element (i, j) at a[i * ld + j].
template <class T>
struct Band {
  T* a;
  int ld;
  T* at(index_t i, index_t j) const { return a + i * ld + j; }
};

// One step: the block column [j, j + size), its panel the rows [j + size, end).
struct Step {
  index_t j, size, end, bandwidth;
  // The panel's row r is zero left of column j + first_nonzero(r) (past the bandwidth).
  index_t first_nonzero(index_t r) const { return std::clamp<index_t>(r - j - bandwidth, 0, size); }
};

Step step_at(const BandLayout& layout, index_t j) {
  const index_t size = std::min(layout.block, layout.n - j);
  return {j, size, j + size + std::min(layout.bandwidth, layout.n - j - size), layout.bandwidth};
}

// C(r0:r1, c0:c1) -= P(r0:r1, :) P(c0:c1, :)ᵀ left of the diagonal (c1 <= r0), P the panel of
// step s. The panel's columns that are zero in all rows from r0 on are skipped; the rest of the
// zero triangle is multiplied (as DPBTRF does in its A32 update): cutting it out would take a
// GEMM a few rows, each packing the whole right operand again.
template <class T>
void subtract_product(const Band<T>& b, const Step& s, index_t r0, index_t r1, index_t c0, index_t c1) {
  const index_t skip = s.first_nonzero(r0);
  if (c1 > c0 && r1 > r0 && skip < s.size)
    blas::gemm(CblasNoTrans, CblasTrans, static_cast<int>(r1 - r0), static_cast<int>(c1 - c0),
               static_cast<int>(s.size - skip), T(-1), b.at(r0, s.j + skip), b.ld, b.at(c0, s.j + skip), b.ld, T(1),
               b.at(r0, c0), b.ld);
}

// The rows [r0, r1) of the lower trailing window from column c0 on: C(r, c0:r+1) -= P(r, :)
// P(c0:r+1, :)ᵀ, a GEMM left of the diagonal block and a SYRK on it.
template <class T>
void update_rows(const Band<T>& b, const Step& s, index_t r0, index_t r1, index_t c0) {
  subtract_product(b, s, r0, r1, c0, r0);
  const index_t skip = s.first_nonzero(r0);
  if (r1 > r0 && skip < s.size)
    blas::syrk(static_cast<int>(r1 - r0), static_cast<int>(s.size - skip), T(-1), b.at(r0, s.j + skip), b.ld, T(1),
               b.at(r0, r0), b.ld);
}

// The largest row sum of |a| over rows [0, n) and columns [0, r] of row r (a lower triangle).
template <class T>
T lower_norm_inf(int n, const T* a, int lda) {
  T norm = 0;
  for (int r = 0; r < n; ++r) {
    T sum = 0;
    for (int c = 0; c <= r; ++c) sum += std::abs(a[r * lda + c]);
    norm = std::max(norm, sum);
  }
  return norm;
}

// The panel solve by the inverse is taken where cond_inf(L) of the diagonal block is at most
// this: its error grows with cond(L) against substitution's (Du Croz and Higham, 1992).
constexpr double kInverseConditionLimit = 100;

// b := b L^-T for `rows` rows, L lower (size x size) and ill-conditioned: by halves, TRSM on
// strips of at most 8 columns and one GEMM a level, as stable as one TRSM call and 1.3-1.5x
// faster on one thread (OpenBLAS 0.3.21: 199 against 302 us at nb = 48 and 1000 rows).
template <class T>
void solve_by_halves(int rows, int size, const T* l, int ldl, T* b, int ldb) {
  if (size <= 8) {
    blas::trsm(CblasRight, CblasTrans, rows, size, l, ldl, b, ldb);
    return;
  }
  const int half = (size / 2 + 3) / 4 * 4;
  solve_by_halves(rows, half, l, ldl, b, ldb);
  blas::gemm(CblasNoTrans, CblasTrans, rows, size - half, half, T(-1), b, ldb, l + half * ldl, ldl, T(1), b + half, ldb);
  solve_by_halves(rows, size - half, l + half * ldl + half, ldl, b + half, ldb);
}

// POTRF on the diagonal block of step s, then its panel := panel L^-T. Where L is
// well-conditioned, as panel (L^-1)^T: TRTRI of a copy of L in `inverse`, then one TRMM; on one
// thread (OpenBLAS 0.3.21, AMD EPYC) TRTRI + TRMM took 5.7 us against TRSM's 14.7 us at nb = 24
// and 100 rows, 102 us against 302 us at nb = 48 and 1000 rows, and the panel solve is on the
// look-ahead's critical path. Else by substitution (solve_by_halves): on a band of condition
// 1e10 with ill-conditioned diagonal blocks the inverse gave a backward error of 3e-15 against
// DPBTRF's 7e-18 (test_band_cholesky).
template <class T>
void factor_block_column(const Band<T>& b, const Step& s, std::vector<T>& inverse) {
  const int size = static_cast<int>(s.size);
  if (const int column = blas::potrf_lower(size, b.at(s.j, s.j), b.ld); column >= 0)
    throw kernels::NotPositiveDefinite(s.j + column);
  const int below = static_cast<int>(s.end - s.j - s.size);
  if (below == 0) return;
  const T* l = b.at(s.j, s.j);
  T* panel = b.at(s.j + s.size, s.j);
  inverse.assign(static_cast<std::size_t>(size) * size, T(0));
  for (int r = 0; r < size; ++r) std::copy_n(l + r * b.ld, r + 1, inverse.data() + r * size);
  blas::trtri_lower(size, inverse.data(), size);
  const double condition = static_cast<double>(lower_norm_inf(size, l, b.ld)) *
                           static_cast<double>(lower_norm_inf(size, inverse.data(), size));
  if (condition <= kInverseConditionLimit) blas::trmm(CblasRight, CblasTrans, below, size, inverse.data(), size, panel, b.ld);
  else solve_by_halves(below, size, l, b.ld, panel, b.ld);
}

// The trailing update of step s right of its look-ahead columns (rows and columns [trailing,
// end)) in pieces of rows for a team of `threads`, as guided scheduling cuts a loop: each piece
// a 1/threads share of the work left, the widest rows first (the work of rows [r, end) grows as
// (end - trailing)^2 - (r - trailing)^2), down to `min_rows`. Piece k is rows [bounds[k],
// bounds[k - 1]) with bounds[-1] = s.end.
void piece_bounds(const Step& s, index_t trailing, int threads, index_t min_rows, std::vector<index_t>& bounds) {
  bounds.clear();
  const double width = static_cast<double>(s.end - trailing);
  double left = 1;  // the fraction of the work in rows [trailing, bounds.back())
  for (index_t r = s.end; r > trailing;) {
    left *= 1 - 1.0 / threads;
    const index_t cut = trailing + static_cast<index_t>(width * std::sqrt(left));
    r = r - cut < min_rows ? trailing : cut;
    bounds.push_back(r);
  }
}

// A barrier whose waiters spin briefly, then yield the core: on a loaded machine (more runnable
// threads than cores) a spinning waiter would keep the thread it waits for off the core, as
// OpenMP's own barriers do (measured: 15x slower at load 5 on 2 cores); OpenBLAS yields likewise.
class YieldingBarrier {
 public:
  void set_threads(int threads) { threads_ = threads; }
  // Waits for the team; returns `stop` as the last thread to arrive saw it, the same for all.
  bool wait(const std::atomic<bool>& stop) {
    const unsigned generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      stopped_ = stop.load();
      generation_.fetch_add(1, std::memory_order_release);
      return stopped_;
    }
    for (int spin = 0; generation_.load(std::memory_order_acquire) == generation; ++spin)
      if (spin > 64) std::this_thread::yield();
    return stopped_;  // written again only once every thread has arrived at the next barrier
  }

 private:
  int threads_ = 1;
  std::atomic<int> arrived_{0};
  std::atomic<unsigned> generation_{0};
  bool stopped_ = false;
};

// Runs work(id, size) on a team of up to `threads` threads, the caller as id 0; fewer where the
// system starts fewer. Plain threads rather than an OpenMP team: libgomp's idle threads spin
// after a region (GOMP_SPINCOUNT, 300,000 by default), taking a core from whatever runs next
// (the substitution, OpenBLAS's threads) where there are as many cores as threads.
template <class Work>
void run_team(int threads, YieldingBarrier& barrier, Work&& work) {
  std::atomic<int> size{0};  // 0 until the team is complete
  const auto member = [&](int id) {
    for (int spin = 0; size.load(std::memory_order_acquire) == 0; ++spin)
      if (spin > 64) std::this_thread::yield();
    work(id, size.load(std::memory_order_relaxed));
  };
  std::vector<std::thread> team;
  for (int id = 1; id < threads; ++id) try {
      team.emplace_back(member, id);
    } catch (const std::system_error&) {
      break;
    }
  barrier.set_threads(static_cast<int>(team.size()) + 1);
  size.store(static_cast<int>(team.size()) + 1, std::memory_order_release);
  member(0);
  for (auto& t : team) t.join();
}

}  // namespace

template <class T>
void factor_look_ahead(T* rows, const BandLayout& layout, const std::function<void(index_t)>& columns_done) {
  if (layout.n == 0) return;
  const Band<T> b{rows + layout.window(), static_cast<int>(layout.window())};
  const index_t min_rows = piece_rows(layout.block);
  const blas::OneBlasThreadPerCall one_thread_per_call;  // the team is the parallelism
  FirstFailure failure;
  const auto guarded = [&](auto&& work) { failure.run(work); };
  std::vector<T> inverse;  // of the diagonal block being factored (the look-ahead thread's)
  guarded([&] { factor_block_column(b, step_at(layout, 0), inverse); });
  failure.rethrow_if_failed();
  YieldingBarrier barrier;
  std::atomic<index_t> taken[2] = {0, 0};  // pieces handed out in even and odd steps
  run_team(omp_get_max_threads(), barrier, [&](int id, int threads) {
    std::vector<index_t> bounds;
    for (index_t j = 0, step = 0; j < layout.n; j += layout.block, ++step) {
      const Step s = step_at(layout, j);
      const index_t next = s.j + s.size;  // the next block column: [next, trailing)
      const index_t trailing = std::min(s.end, next + layout.block);
      guarded([&] { piece_bounds(s, trailing, threads, min_rows, bounds); });
      if (id == 0) {  // the look-ahead
        taken[(step + 1) % 2].store(0, std::memory_order_relaxed);  // unused until after this step's barrier
        guarded([&] {
          if (columns_done) columns_done(next);
          if (next == layout.n) return;
          update_rows(b, s, next, trailing, next);
          subtract_product(b, s, trailing, s.end, next, trailing);
          factor_block_column(b, step_at(layout, next), inverse);
        });
      }
      auto& counter = taken[step % 2];
      for (index_t k; !failure.failed() &&
                      (k = counter.fetch_add(1, std::memory_order_relaxed)) < static_cast<index_t>(bounds.size());) {
        const index_t r0 = bounds[k], r1 = k == 0 ? s.end : bounds[k - 1];
        guarded([&] { update_rows(b, s, r0, r1, trailing); });
      }
      if (barrier.wait(failure.flag())) break;
    }
  });
  failure.rethrow_if_failed();
}

template void factor_look_ahead<double>(double*, const BandLayout&, const std::function<void(index_t)>&);
template void factor_look_ahead<float>(float*, const BandLayout&, const std::function<void(index_t)>&);

}  // namespace fem::band

#include "solvers/direct/twisted_band_cholesky.hpp"

#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "solvers/direct/twisted_copies.hpp"
#include "support/stopwatch.hpp"

namespace fem::band {

using kernels::DeviceMatrix;
using kernels::NotPositiveDefinite;

TwistedSplit twisted_split(index_t n, index_t kd, index_t m) {
  if (kd < 1 || m < 0 || m > n - kd)
    throw std::invalid_argument("twisted band Cholesky: no split at row " + std::to_string(m) + " of " +
                                std::to_string(n) + " equations with half-bandwidth " + std::to_string(kd) +
                                " (0 <= m <= n - kd, kd >= 1)");
  return {n, kd, m};
}

TwistedSplit balanced_split(index_t n, index_t kd) { return twisted_split(n, kd, (n - kd) / 2); }

namespace {

// Runs `work`, keeping what it throws for later.
template <class Work>
std::exception_ptr captured(Work&& work) {
  try {
    work();
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// The kd x kd separator block of a band whose S rows start at row `first`.
template <class T>
DeviceMatrix<T> separator_of(const BandOnBackend<T>& band, index_t first, index_t kd) {
  return band.tile(first, first, kd, kd);
}

}  // namespace

template <class T>
TwistedFactor<T> factor_twisted(kernels::DenseBackend& backend, const BandOnBackend<T>& band, const TwistedSplit& split,
                                const Walker<T>& walker, TwistedTimes* times) {
  const BandLayout& layout = band.layout;
  if (split.n != layout.n || split.kd != layout.bandwidth)
    throw std::invalid_argument("twisted band Cholesky: the split is of another band");
  const index_t kd = split.kd, m = split.m;
  const BandLayout top_layout{split.top_rows(), kd, layout.block}, bottom_layout{split.bottom_rows(), kd, layout.block};
  Stopwatch watch;
  TwistedFactor<T> f{split,
                     {top_layout, band.storage.block(0, 0, split.top_rows(), layout.pitch())},
                     {bottom_layout, backend.allocate<T>(split.bottom_rows(), layout.pitch())}};
  const DeviceMatrix<T> top_s = separator_of(f.top, m, kd), bottom_s = separator_of(f.bottom, split.bottom_only_rows(), kd);
  // A_SS, then the separator's Schur complement; L1 and J L2 J, dense.
  const auto s = backend.allocate<T>(kd, kd), l1 = backend.allocate<T>(kd, kd), u2 = backend.allocate<T>(kd, kd);
  backend.synchronize();
  const double allocate_s = watch.restart();

  twisted::reflect_band(backend, band, m, f.bottom);
  twisted::triangle_to_dense(backend, top_s, false, s);
  backend.synchronize();
  const double reflect_s = watch.restart();

  std::exception_ptr bottom_failure;
  std::thread bottom([&] { bottom_failure = captured([&] { walker(f.bottom, 1, 2); }); });
  const std::exception_ptr top_failure = captured([&] { walker(f.top, 0, 2); });
  bottom.join();
  backend.synchronize();
  const double walkers_s = watch.restart();
  if (top_failure) std::rethrow_exception(top_failure);  // its rows are A's
  if (bottom_failure) {
    try {
      std::rethrow_exception(bottom_failure);
    } catch (const NotPositiveDefinite& e) {
      throw NotPositiveDefinite(split.original_of_reflected(e.column()));
    }
  }

  twisted::triangle_to_dense(backend, top_s, false, l1);
  twisted::triangle_to_dense(backend, bottom_s, true, u2);
  backend.syrk(T(1), l1, T(-1), s);  // L1 L1ᵀ - A_SS
  backend.syrk(T(1), u2, T(1), s);   // + (J L2 J)(J L2 J)ᵀ = A_SS - C_top - C_bot
  twisted::copy_lower(backend, s, top_s);
  const BandOnBackend<T> separator{{kd, kd, layout.block}, band.storage.block(m, 0, kd, layout.pitch())};
  try {
    walker(separator, 0, 1);
  } catch (const NotPositiveDefinite& e) {
    throw NotPositiveDefinite(m + e.column());
  }
  twisted::unit_lower(backend, bottom_s);
  backend.synchronize();
  if (times) *times = {allocate_s, reflect_s, walkers_s, watch.seconds()};
  return f;
}

template <class T>
void substitute_twisted(kernels::DenseBackend& backend, const TwistedFactor<T>& factor, const DeviceMatrix<T>& x) {
  const TwistedSplit& s = factor.split;
  const index_t r = x.cols, b_rows = s.bottom_only_rows();
  if (x.rows != s.n) throw std::invalid_argument("substitute_twisted: the right-hand sides have the wrong rows");
  if (s.n == 0 || r == 0) return;
  const auto v = backend.allocate<T>(s.bottom_rows(), r);  // zero: its S rows' right-hand side
  const auto x_b = x.block(s.m + s.kd, 0, b_rows, r), x_s = x.block(s.m, 0, s.kd, r);
  const auto v_b = v.block(0, 0, b_rows, r), v_s = v.block(b_rows, 0, s.kd, r);
  twisted::reverse_rows(backend, x_b, false, v_b);
  substitute(backend, factor.bottom, v, Sweep::forward);  // y_B; -L_SB y_B in S
  twisted::reverse_rows(backend, v_s, true, x_s);
  const auto x_top = x.block(0, 0, s.top_rows(), r);
  substitute(backend, factor.top, x_top);  // x_T, x_S
  twisted::reverse_rows(backend, x_s, false, v_s);
  substitute(backend, factor.bottom, v, Sweep::backward);  // x_B
  twisted::reverse_rows(backend, v_b, false, x_b);
}

template TwistedFactor<double> factor_twisted<double>(kernels::DenseBackend&, const BandOnBackend<double>&,
                                                      const TwistedSplit&, const Walker<double>&, TwistedTimes*);
template TwistedFactor<float> factor_twisted<float>(kernels::DenseBackend&, const BandOnBackend<float>&,
                                                    const TwistedSplit&, const Walker<float>&, TwistedTimes*);
template void substitute_twisted<double>(kernels::DenseBackend&, const TwistedFactor<double>&,
                                         const DeviceMatrix<double>&);
template void substitute_twisted<float>(kernels::DenseBackend&, const TwistedFactor<float>&, const DeviceMatrix<float>&);

}  // namespace fem::band

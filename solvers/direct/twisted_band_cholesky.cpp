#include "solvers/direct/twisted_band_cholesky.hpp"

#include <cstdint>
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

std::size_t twisted_bytes(const BandLayout& layout, std::size_t element_bytes) {
  const auto kd = static_cast<std::size_t>(layout.bandwidth);
  return ((static_cast<std::size_t>(layout.n) + kd) * static_cast<std::size_t>(layout.pitch()) + 2 * kd * kd) *
             element_bytes +
         kBottomAlignment;
}

template <class T>
std::size_t TwistedBand<T>::bytes() const {
  return top.storage.storage->bytes() + separator.storage->bytes() + triangle.storage->bytes();
}

template <class T>
TwistedBand<T> allocate_twisted(kernels::DenseBackend& backend, const BandLayout& layout, const TwistedSplit& split) {
  if (split.n != layout.n || split.kd != layout.bandwidth)
    throw std::invalid_argument("twisted band Cholesky: the split is of another band");
  const index_t kd = split.kd, pitch = layout.pitch(), top_rows = split.top_rows(), bottom_rows = split.bottom_rows();
  // One allocation: the top's rows, then the bottom's from the first aligned element after them.
  const index_t top_elements = top_rows * pitch, slack = static_cast<index_t>(kBottomAlignment / sizeof(T));
  const auto all = backend.allocate<T>(1, top_elements + slack + bottom_rows * pitch);
  const auto top_end = reinterpret_cast<std::uintptr_t>(all.data() + top_elements);
  const index_t bottom_offset =
      top_elements + static_cast<index_t>((kBottomAlignment - top_end % kBottomAlignment) % kBottomAlignment / sizeof(T));
  return {split,
          {{top_rows, kd, layout.block}, {all.storage, 0, top_rows, pitch, pitch}},
          {{bottom_rows, kd, layout.block}, {all.storage, bottom_offset, bottom_rows, pitch, pitch}},
          backend.allocate<T>(kd, kd),
          backend.allocate<T>(kd, kd)};
}

template <class T>
void factor_twisted(kernels::DenseBackend& backend, const TwistedBand<T>& band, const Walker<T>& walker,
                    TwistedTimes* times) {
  const TwistedSplit& split = band.split;
  const index_t kd = split.kd, m = split.m;
  const DeviceMatrix<T> top_s = separator_of(band.top, m, kd),
                        bottom_s = separator_of(band.bottom, split.bottom_only_rows(), kd);
  Stopwatch watch;
  twisted::triangle_to_dense(backend, top_s, false, band.separator);  // A_SS, before the walkers change it
  backend.synchronize();
  const double copy_s = watch.restart();

  std::exception_ptr bottom_failure;
  double bottom_walker_s = 0;
  std::thread bottom([&] {
    bottom_failure = captured([&] { walker(band.bottom, 1, 2); });
    bottom_walker_s = watch.seconds();
  });
  const std::exception_ptr top_failure = captured([&] { walker(band.top, 0, 2); });
  const double top_walker_s = watch.seconds();
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

  const DeviceMatrix<T>& s = band.separator;
  twisted::triangle_to_dense(backend, top_s, false, band.triangle);
  backend.syrk(T(1), band.triangle, T(-1), s);  // L1 L1ᵀ - A_SS
  twisted::triangle_to_dense(backend, bottom_s, true, band.triangle);
  backend.syrk(T(1), band.triangle, T(1), s);  // + (J L2 J)(J L2 J)ᵀ = A_SS - C_top - C_bot
  twisted::copy_lower(backend, s, top_s);
  backend.synchronize();
  const double combine_s = watch.restart();
  const BandLayout& top = band.top.layout;
  const BandOnBackend<T> separator{{kd, kd, top.block}, band.top.storage.block(m, 0, kd, top.pitch())};
  try {
    walker(separator, 0, 1);
  } catch (const NotPositiveDefinite& e) {
    throw NotPositiveDefinite(m + e.column());
  }
  twisted::unit_lower(backend, bottom_s);
  backend.synchronize();
  if (times) *times = {copy_s, walkers_s, top_walker_s, bottom_walker_s, combine_s, watch.seconds()};
}

template <class T>
void substitute_twisted(kernels::DenseBackend& backend, const TwistedBand<T>& factor, const DeviceMatrix<T>& x) {
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

#define FEM_TWISTED_BAND(T)                                                                                     \
  template struct TwistedBand<T>;                                                                               \
  template TwistedBand<T> allocate_twisted<T>(kernels::DenseBackend&, const BandLayout&, const TwistedSplit&);  \
  template void factor_twisted<T>(kernels::DenseBackend&, const TwistedBand<T>&, const Walker<T>&, TwistedTimes*); \
  template void substitute_twisted<T>(kernels::DenseBackend&, const TwistedBand<T>&, const DeviceMatrix<T>&);
FEM_TWISTED_BAND(double)
FEM_TWISTED_BAND(float)
#undef FEM_TWISTED_BAND

}  // namespace fem::band

#pragma once
// The two-sided band Cholesky (twisted_band_cholesky.hpp) against the one-sided one on the host,
// on any back-end and walker: the solutions of random SPD bands, and the equation named where a
// pivot fails. Used by the host tests and by the GPU ones.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "solvers/direct/band_cholesky_solver.hpp"
#include "kernels/cpu/blas_backend.hpp"
#include "solvers/direct/twisted_band_cholesky.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"

namespace fem::band_tests {

// The largest relative difference between X solved two-sided in T (split at m, `block`, the
// band's halves factored by `walker` on `backend`) and one-sided in FP64 on the host, for r
// random right-hand sides of a random SPD band (n, kd).
template <class T>
double twisted_against_one_sided(kernels::DenseBackend& backend, const band::Walker<T>& walker, std::int64_t n,
                                 std::int64_t kd, std::int64_t m, std::int64_t block, std::int64_t r, unsigned seed) {
  const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, seed), n);
  const band::BandLayout layout = band::make_layout(csr, block);
  std::mt19937 rng(seed + 1);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> rhs(static_cast<std::size_t>(n * r)), expected(rhs.size());
  for (auto& v : rhs) v = u(rng);

  kernels::cpu::BlasBackend cpu;
  const auto reference = band::load_band<double>(cpu, csr, layout);
  band::factor(cpu, reference, band::Schedule::in_order);
  const auto x_ref = cpu.upload(rhs.data(), n, r, r);
  band::substitute(cpu, reference, x_ref);
  cpu.download(x_ref, expected.data(), r);

  const auto factor = band::load_twisted_band<T>(backend, csr, layout, band::twisted_split(n, kd, m));
  band::factor_twisted<T>(backend, factor, walker);
  std::vector<T> b(rhs.begin(), rhs.end());
  const auto x = backend.upload(b.data(), n, r, r);
  band::substitute_twisted(backend, factor, x);
  backend.download(x, b.data(), r);
  return max_rel_diff(std::vector<double>(b.begin(), b.end()), expected);
}

// The band's rows as the host holds them (pitch() entries a row, padding included).
template <class T>
std::vector<T> downloaded(kernels::DenseBackend& backend, const band::BandOnBackend<T>& band) {
  std::vector<T> rows(band.layout.elements());
  backend.download(band.storage, rows.data(), band.layout.pitch());
  return rows;
}

// Where the two-sided load (load_twisted_band on `backend`, in T) differs from the one-sided load
// on the host and the reflection of its rows [m, n): the entries of the top band, then of the
// bottom band, that differ (every stored one compared, padding included).
struct TwistedLoadDifferences {
  std::int64_t top = 0, bottom = 0;
};
template <class T>
TwistedLoadDifferences twisted_load_against_reflection(kernels::DenseBackend& backend, const CsrMatrix& csr,
                                                       const band::BandLayout& layout, std::int64_t m) {
  kernels::cpu::BlasBackend cpu;
  const auto one_sided = downloaded(cpu, band::load_band<double>(cpu, csr, layout));
  const auto twisted = band::load_twisted_band<T>(backend, csr, layout, band::twisted_split(layout.n, layout.bandwidth, m));
  const auto top = downloaded(backend, twisted.top), bottom = downloaded(backend, twisted.bottom);
  const std::int64_t n = layout.n, kd = layout.bandwidth, window = layout.window();
  TwistedLoadDifferences d;
  for (std::int64_t i = 0; i < m + kd; ++i)
    for (std::int64_t j = i - window; j <= i; ++j)
      d.top += top[layout.offset(i, j)] != static_cast<T>(one_sided[layout.offset(i, j)]);
  // reflected(i, j) = A(n - 1 - j, n - 1 - i) inside the band, zero elsewhere
  for (std::int64_t i = 0; i < n - m; ++i)
    for (std::int64_t j = i - window; j <= i; ++j) {
      const double expected = j >= 0 && i - j <= kd ? one_sided[layout.offset(n - 1 - j, n - 1 - i)] : 0.0;
      d.bottom += bottom[layout.offset(i, j)] != static_cast<T>(expected);
    }
  return d;
}

// The equation factor_twisted names for `a` (row-major dense n x n, not positive definite),
// split at m; -1 where it names none.
template <class T>
std::int64_t twisted_failure(kernels::DenseBackend& backend, const band::Walker<T>& walker, const std::vector<double>& a,
                             std::int64_t n, std::int64_t m, std::int64_t block) {
  const CsrMatrix csr = dense_to_csr(a, n);
  const band::BandLayout layout = band::make_layout(csr, block);
  const auto twisted = band::load_twisted_band<T>(backend, csr, layout, band::twisted_split(n, layout.bandwidth, m));
  try {
    band::factor_twisted<T>(backend, twisted, walker);
  } catch (const kernels::NotPositiveDefinite& e) {
    return e.column();
  }
  return -1;
}

// A 3 x 3 tridiagonal matrix split at m = 1 (T, S, B one row each) whose top and bottom walkers
// both factor (A_SS - C_top = A_SS - C_bot = 0.5) but whose separator does not (0.5 - 1 < 0):
// the two-sided factorisation names equation 1.
inline std::vector<double> separator_fails() { return {1, 1, 0, 1, 1.5, 1, 0, 1, 1}; }

}  // namespace fem::band_tests

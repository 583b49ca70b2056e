// The blocked band Cholesky against LAPACK (DPBTRF/DPBTRS on the same band, DPOSV on the dense
// matrix) on random SPD band matrices of awkward sizes, bandwidths and block sizes, with both
// schedules; and the solvers' failure messages.
#include <doctest/doctest.h>
#include <lapacke.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>

#include "kernels/dense_registry.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "solvers/direct/band_elimination.hpp"
#include "solvers/direct/direct_kernels.hpp"
#include "kernels/cpu/blas_backend.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"
#include "tests/solvers/direct/twisted_test_cases.hpp"

using namespace fem;
using band::index_t;
using namespace band_tests;  // the random SPD band matrices and their comparison

namespace {

// LAPACK's upper band storage (column-major, ldab = kd + 1) of A: column j holds A(j-kd..j, j),
// which is row j of A's lower band, i.e. exactly our row layout without the padding.
std::vector<double> lapack_upper_band(const std::vector<double>& a, index_t n, index_t kd) {
  std::vector<double> ab(static_cast<std::size_t>(n * (kd + 1)), 0.0);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = std::max<index_t>(0, j - kd); i <= j; ++i) ab[j * (kd + 1) + kd + i - j] = a[i * n + j];
  return ab;
}

std::vector<double> random_rhs(index_t n, index_t r, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> b(static_cast<std::size_t>(n * r));
  for (auto& v : b) v = u(rng);
  return b;
}

struct Checked {
  double factor_diff;    // our L against DPBTRF's, relative to max |L|
  double solve_diff;     // our X against DPBTRS's
  double dense_diff;     // our X against DPOSV on the dense matrix
};

Checked compare_with_lapack(const std::string& backend_name, band::Schedule schedule, index_t n, index_t kd,
                            index_t block, unsigned seed) {
  const auto a = random_spd_band(n, kd, seed);
  const CsrMatrix csr = dense_to_csr(a, n);
  std::unique_ptr<kernels::DenseBackend> backend;
  if (backend_name == "blas") backend = std::make_unique<kernels::cpu::BlasBackend>();
  else backend = kernels::make_dense_backend(backend_name);
  band::BandLayout layout = band::make_layout(csr, block);
  REQUIRE(layout.bandwidth == std::min(kd, n - 1));
  auto factor = band::load_band<double>(*backend, csr, layout);
  band::factor_or_fail(*backend, factor, schedule);

  const index_t r = 3;
  const auto b = random_rhs(n, r, seed + 1);
  const auto x = band::solve_factored(*backend, factor, b, r);

  // LAPACK on the same band (column-major: the right-hand sides are columns).
  const index_t k = layout.bandwidth;
  auto ab = lapack_upper_band(a, n, k);
  REQUIRE(LAPACKE_dpbtrf(LAPACK_COL_MAJOR, 'U', n, k, ab.data(), k + 1) == 0);
  std::vector<double> xl(b.size()), xd(b.size());
  for (index_t i = 0; i < n; ++i)
    for (index_t c = 0; c < r; ++c) xl[c * n + i] = b[i * r + c];
  REQUIRE(LAPACKE_dpbtrs(LAPACK_COL_MAJOR, 'U', n, k, r, ab.data(), k + 1, xl.data(), n) == 0);
  auto dense = a;
  xd = b;
  REQUIRE(LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', n, r, dense.data(), n, xd.data(), r) == 0);

  std::vector<double> ours_l(static_cast<std::size_t>(n * (k + 1))), lapack_l(ours_l.size());
  std::vector<double> stored(layout.elements());
  backend->download(factor.storage, stored.data(), layout.pitch());
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - k); j <= i; ++j) {
      ours_l[i * (k + 1) + j - i + k] = stored[layout.offset(i, j)];
      lapack_l[i * (k + 1) + j - i + k] = ab[i * (k + 1) + k + j - i];
    }
  std::vector<double> xl_rows(b.size());
  for (index_t i = 0; i < n; ++i)
    for (index_t c = 0; c < r; ++c) xl_rows[i * r + c] = xl[c * n + i];
  return {max_rel_diff(ours_l, lapack_l), max_rel_diff(x, xl_rows), max_rel_diff(x, xd)};
}

}  // namespace

TEST_CASE("band Cholesky matches LAPACK DPBTRF/DPBTRS and a dense solve on awkward sizes") {
  unsigned seed = 100;
  for (const index_t n : {1, 7, 100, 257})
    for (const index_t kd : {index_t{0}, index_t{1}, index_t{5}, index_t{64}, n, n + 3})
      for (const index_t block : {index_t{0}, index_t{3}, index_t{17}})
        for (const auto& [backend, schedule] : {std::pair{"blas", band::Schedule::tasks},
                                               std::pair{"blas", band::Schedule::in_order},
                                               std::pair{"blas", band::Schedule::look_ahead},
                                               std::pair{"openmp", band::Schedule::tasks},
                                               std::pair{"serial", band::Schedule::in_order}}) {
          CAPTURE(n);
          CAPTURE(kd);
          CAPTURE(block);
          CAPTURE(backend);
          const auto c = compare_with_lapack(backend, schedule, n, kd, block, ++seed);
          CHECK(c.factor_diff < 1e-13);
          CHECK(c.solve_diff < 1e-12);
          CHECK(c.dense_diff < 1e-12);
        }
}

namespace {

// A x = b by a plain dense Cholesky (row-major, all n x n), the reference of the wide-band test.
std::vector<double> dense_cholesky_solve(std::vector<double> a, index_t n, std::vector<double> x, index_t r) {
  for (index_t j = 0; j < n; ++j) {
    for (index_t k = 0; k < j; ++k) a[j * n + j] -= a[j * n + k] * a[j * n + k];
    a[j * n + j] = std::sqrt(a[j * n + j]);
    for (index_t i = j + 1; i < n; ++i) {
      for (index_t k = 0; k < j; ++k) a[i * n + j] -= a[i * n + k] * a[j * n + k];
      a[i * n + j] /= a[j * n + j];
    }
  }
  for (index_t c = 0; c < r; ++c) {
    for (index_t i = 0; i < n; ++i) {
      for (index_t k = 0; k < i; ++k) x[i * r + c] -= a[i * n + k] * x[k * r + c];
      x[i * r + c] /= a[i * n + i];
    }
    for (index_t i = n - 1; i >= 0; --i) {
      for (index_t k = i + 1; k < n; ++k) x[i * r + c] -= a[k * n + i] * x[k * r + c];
      x[i * r + c] /= a[i * n + i];
    }
  }
  return x;
}

}  // namespace

TEST_CASE("band Cholesky at the CPU solver's block sizes and schedules matches a dense Cholesky on wide bands") {
  // n/kd from 3 to 15, kd not a multiple of the block and n not a multiple of either; one
  // right-hand side (the row-by-row substitution) and nine (the blocked one).
  unsigned seed = 500;
  for (const auto& [n, kd] : {std::pair<index_t, index_t>{451, 150}, {733, 49}, {599, 263}, {1003, 67}}) {
    const auto a = random_spd_band(n, kd, ++seed);
    const CsrMatrix csr = dense_to_csr(a, n);
    const index_t r = 9;
    const auto b9 = random_rhs(n, r, seed + 1000);
    const auto x9 = dense_cholesky_solve(a, n, b9, r);
    std::vector<double> b1(n), x1(n);  // the first column alone
    for (index_t i = 0; i < n; ++i) b1[i] = b9[r * i], x1[i] = x9[r * i];
    for (const index_t block : {index_t{0}, index_t{64}, index_t{48}})
      for (const auto schedule : {band::Schedule::tasks, band::Schedule::in_order, band::Schedule::look_ahead}) {
        CAPTURE(n);
        CAPTURE(kd);
        CAPTURE(block);
        kernels::cpu::BlasBackend backend;
        const band::BandLayout layout = band::make_layout(csr, block);
        auto factor = band::load_band<double>(backend, csr, layout);
        band::factor_or_fail(backend, factor, schedule);
        CHECK(max_rel_diff(band::solve_factored(backend, factor, b1, 1), x1) < 1e-12);
        CHECK(max_rel_diff(band::solve_factored(backend, factor, b9, r), x9) < 1e-12);
      }
  }
}

TEST_CASE("band Cholesky with look-ahead: teams of 1 to 3 threads match a dense Cholesky and name a failing pivot") {
  // Several pieces a step (b = 300), blocks not dividing n or b, n below the block, a diagonal
  // matrix and a band wider than the matrix; a pivot failing in a block column factored ahead.
  const int threads_before = omp_get_max_threads();
  unsigned seed = 900;
  for (const int threads : {1, 2, 3}) {
    omp_set_num_threads(threads);
    for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{700, 300, 48}, {257, 64, 17}, {50, 120, 8},
                                       {40, 0, 7}, {5, 3, 16}, {333, 40, 40}}) {
      CAPTURE(threads);
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(block);
      const auto a = random_spd_band(n, kd, ++seed);
      const CsrMatrix csr = dense_to_csr(a, n);
      const index_t r = 2;
      const auto b = random_rhs(n, r, seed + 1);
      kernels::cpu::BlasBackend backend;
      auto factor = band::load_band<double>(backend, csr, band::make_layout(csr, block));
      std::vector<index_t> reported;
      band::factor_or_fail(backend, factor, band::Schedule::look_ahead, [&](index_t done) { reported.push_back(done); });
      CHECK(max_rel_diff(band::solve_factored(backend, factor, b, r), dense_cholesky_solve(a, n, b, r)) < 1e-12);
      CHECK(!reported.empty());
      CHECK(reported.back() == n);
    }
    const index_t n = 400, kd = 100, bad = 250;
    auto a = random_spd_band(n, kd, 77);
    a[bad * n + bad] = -1.0;
    const CsrMatrix csr = dense_to_csr(a, n);
    kernels::cpu::BlasBackend backend;
    auto factor = band::load_band<double>(backend, csr, band::make_layout(csr, 32));
    try {
      band::factor(backend, factor, band::Schedule::look_ahead);
      FAIL("no failure reported");
    } catch (const kernels::NotPositiveDefinite& e) {
      CHECK(e.column() == bad);
    }
  }
  omp_set_num_threads(threads_before);
}

namespace {

// A = B Bᵀ + δ I with B a random lower band of half-bandwidth kd (so A's is kd): for a random
// triangular B the condition number of A is about ||A|| / δ, here near 1e10, and the diagonal
// blocks are ill-conditioned too (the look-ahead solves its panels by their inverse).
std::vector<double> ill_conditioned_band(index_t n, index_t kd, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> lower(static_cast<std::size_t>(n * n), 0.0), a(lower.size(), 0.0);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - kd); j <= i; ++j) lower[i * n + j] = u(rng);
  double norm = 0;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - kd); j <= i; ++j) {
      double dot = 0;
      for (index_t k = std::max<index_t>(0, i - kd); k <= j; ++k) dot += lower[i * n + k] * lower[j * n + k];
      a[i * n + j] = a[j * n + i] = dot;
      norm = std::max(norm, std::abs(dot));
    }
  for (index_t i = 0; i < n; ++i) a[i * n + i] += 1e-10 * norm;
  return a;
}

// The normwise backward error of x in A x = b (one right-hand side): ||A x - b|| / (||A|| ||x|| +
// ||b||), max norms.
double backward_error(const std::vector<double>& a, index_t n, const std::vector<double>& x,
                      const std::vector<double>& b) {
  double residual = 0, norm_a = 0, norm_x = 0, norm_b = 0;
  for (index_t i = 0; i < n; ++i) {
    double ax = 0, row = 0;
    for (index_t j = 0; j < n; ++j) ax += a[i * n + j] * x[j], row += std::abs(a[i * n + j]);
    residual = std::max(residual, std::abs(ax - b[i]));
    norm_a = std::max(norm_a, row), norm_x = std::max(norm_x, std::abs(x[i])), norm_b = std::max(norm_b, std::abs(b[i]));
  }
  return residual / (norm_a * norm_x + norm_b);
}

}  // namespace

TEST_CASE("band Cholesky with look-ahead stays backward stable as DPBTRF on an ill-conditioned band") {
  const int threads_before = omp_get_max_threads();
  for (const int threads : {1, 2})
    for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{400, 100, 24}, {300, 40, 17}, {257, 64, 48}}) {
      CAPTURE(threads);
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(block);
      omp_set_num_threads(threads);
      const auto a = ill_conditioned_band(n, kd, static_cast<unsigned>(n + kd));
      const auto b = random_rhs(n, 1, 5);
      const CsrMatrix csr = dense_to_csr(a, n);
      kernels::cpu::BlasBackend backend;
      auto factor = band::load_band<double>(backend, csr, band::make_layout(csr, block));
      band::factor_or_fail(backend, factor, band::Schedule::look_ahead);
      const auto ours = band::solve_factored(backend, factor, b, 1);
      auto ab = lapack_upper_band(a, n, kd);
      auto theirs = b;
      REQUIRE(LAPACKE_dpbtrf(LAPACK_COL_MAJOR, 'U', n, kd, ab.data(), kd + 1) == 0);
      REQUIRE(LAPACKE_dpbtrs(LAPACK_COL_MAJOR, 'U', n, kd, 1, ab.data(), kd + 1, theirs.data(), n) == 0);
      const double ours_error = backward_error(a, n, ours, b), lapack_error = backward_error(a, n, theirs, b);
      CAPTURE(ours_error);
      CAPTURE(lapack_error);
      CHECK(ours_error < std::max(10 * lapack_error, 1e-16));
    }
  omp_set_num_threads(threads_before);
}

TEST_CASE("band Cholesky: the padding past the bandwidth stays zero and the flop count is exact") {
  const index_t n = 50, kd = 9;
  const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, 7), n);
  auto backend = std::make_unique<kernels::cpu::BlasBackend>();
  const band::BandLayout layout = band::make_layout(csr, 4);
  CHECK(layout.window() == 16);  // kd + block = 13, rounded up to a multiple of 8 (kernels/band_layout.hpp)
  CHECK(band::BandLayout{50, 9, 7}.window() == 16);
  CHECK(band::BandLayout{50, 9, 8}.window() == 24);
  // The GPU's half-bandwidth: a multiple of 8, at most n - 1, never below kd.
  CHECK(band::device_bandwidth(3999, 1'000'000) == 4000);
  CHECK(band::device_bandwidth(1601, 20'000) == 1608);
  CHECK(band::device_bandwidth(1600, 20'000) == 1600);
  CHECK(band::device_bandwidth(5, 7) == 6);
  CHECK(band::device_bandwidth(6, 7) == 6);
  CHECK(band::device_bandwidth(0, 1) == 0);
  auto factor = band::load_band<double>(*backend, csr, layout);
  band::factor(*backend, factor, band::Schedule::tasks);
  std::vector<double> stored(layout.elements());
  backend->download(factor.storage, stored.data(), layout.pitch());
  double outside = 0;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - layout.window()); j < i - kd; ++j)
      outside = std::max(outside, std::abs(stored[layout.offset(i, j)]));
  CHECK(outside == 0.0);
  double count = 0;  // column by column: (r + 1)^2 with r entries below the diagonal
  for (index_t j = 0; j < n; ++j) count += std::pow(std::min(kd, n - 1 - j) + 1.0, 2);
  CHECK(band::cholesky_flops(n, kd) == count);
}

TEST_CASE("blocked band Gauss and LDLT match a dense LAPACK solve on awkward sizes, in FP64 and mixed") {
  unsigned seed = 500;
  for (const index_t n : {1, 7, 100, 257})
    for (const index_t kd : {index_t{0}, index_t{1}, index_t{5}, index_t{63}, index_t{64}, index_t{70}, n + 3})
      for (const char* precision : {"double", "mixed"}) {
        CAPTURE(n);
        CAPTURE(kd);
        CAPTURE(precision);
        const auto a = random_spd_band(n, kd, ++seed);
        const CsrMatrix csr = dense_to_csr(a, n);
        const auto b = random_rhs(n, 1, seed + 1);
        auto dense = a;
        auto expected = b;
        REQUIRE(LAPACKE_dposv(LAPACK_ROW_MAJOR, 'L', n, 1, dense.data(), n, expected.data(), 1) == 0);
        SolverOptions options;
        options.precision = *parse_choice<Precision>(precision);
        for (auto make : {make_band_gauss_cpu, make_band_ldlt_cpu}) {
          std::vector<double> x(static_cast<std::size_t>(n));
          const SolveReport report = make(options)->solve(AssembledSystem{csr, b}, x);
          CHECK(max_rel_diff(x, expected) < 1e-11);
          CHECK(report.residual < 1e-10);
          CHECK(report.figures.at("factor_precision_bits") == (std::string(precision) == "mixed" ? 32 : 64));
        }
      }
}

TEST_CASE("band solvers name the equation whose pivot fails") {
  const index_t n = 120, kd = 11, bad = 37;
  auto a = random_spd_band(n, kd, 3);
  a[bad * n + bad] = -1.0;  // rows 0..36 stay SPD, so equation 37 is the first to fail
  const CsrMatrix csr = dense_to_csr(a, n);
  const std::vector<double> rhs(n, 1.0);
  std::vector<double> u(n);
  for (const auto& [method, precision] : {std::pair{"band-cholesky", "double"}, std::pair{"band-cholesky", "mixed"},
                                          std::pair{"band-gauss", "double"}, std::pair{"band-ldlt", "double"},
                                          std::pair{"band-gauss", "mixed"}, std::pair{"band-ldlt", "mixed"}}) {
    CAPTURE(method);
    CAPTURE(precision);
    SolverOptions options;
    options.method = parse_choice<SolverMethodId>(method).value();
    options.precision = *parse_choice<Precision>(precision);
    auto solver = std::string(method) == "band-cholesky" ? make_band_cholesky_cpu(options)
                  : std::string(method) == "band-gauss"  ? make_band_gauss_cpu(options)
                                                         : make_band_ldlt_cpu(options);
    try {
      solver->solve(AssembledSystem{csr, rhs}, u);
      FAIL("no failure reported");
    } catch (const SolveFailure& e) {
      CHECK(e.equation() == bad);
      CHECK(std::string(e.what()).find("equation 37") != std::string::npos);
    }
  }
}

namespace {

// n equations, the last row's only entry in column 0: a band of half-bandwidth n - 1.
CsrMatrix corners_apart(index_t n) {
  CsrMatrix csr;
  csr.rows = n;
  csr.row_ptr.assign(n + 1, 0);
  for (index_t i = 1; i <= n; ++i) csr.row_ptr[i] = i;
  csr.col.resize(n);
  csr.val.assign(n, 1.0);
  for (index_t i = 0; i < n; ++i) csr.col[i] = static_cast<std::int32_t>(i == n - 1 ? 0 : i);
  return csr;
}

}  // namespace

TEST_CASE("band Cholesky refuses a band that does not fit in memory, with a clear message") {
  // Two entries 3 million equations apart: the band would need about 72 TB.
  const index_t n = 3'000'000;
  const CsrMatrix csr = corners_apart(n);
  const std::vector<double> rhs(n, 1.0);
  std::vector<double> u(n);
  CHECK_THROWS_WITH_AS(make_band_cholesky_cpu({})->solve(AssembledSystem{csr, rhs}, u),
                       doctest::Contains("is available on blas"), SolveFailure);
}

TEST_CASE("band Cholesky rejects mismatched sizes") {
  const CsrMatrix csr = dense_to_csr(random_spd_band(5, 1, 1), 5);
  const std::vector<double> rhs(4, 1.0);
  std::vector<double> u(5);
  CHECK_THROWS_AS(make_band_cholesky_cpu({})->solve(AssembledSystem{csr, rhs}, u), std::invalid_argument);
}

namespace {

// A random SPD band with holes (a third of its off-diagonal entries zero, so not stored): the
// loads must place what the CSR matrix holds and zero the rest.
CsrMatrix band_with_holes(index_t n, index_t kd, unsigned seed) {
  auto a = random_spd_band(n, kd, seed);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - kd + 1); j < i; ++j)
      if ((i * 7 + j * 3) % 3 == 0) a[i * n + j] = a[j * n + i] = 0;
  return dense_to_csr(a, n);
}

}  // namespace

TEST_CASE("reflected_band_rows hands over the band's reflection in order, in chunks of any size") {
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{1, 0, 1}, {2, 1, 1}, {57, 9, 4},
                                     {301, 29, 8}, {200, 63, 64}}) {
    const CsrMatrix csr = band_with_holes(n, kd, static_cast<unsigned>(n + kd));
    const band::BandLayout layout = band::make_layout(csr, block);
    const index_t pitch = layout.pitch(), window = layout.window();
    std::vector<double> whole(layout.elements());
    band::fill_band_rows(csr, layout, 0, n, whole.data());
    for (const index_t first : {index_t{0}, index_t{1}, n / 2, n - kd, n - 1}) {
      if (first < 0 || first >= n) continue;
      for (const index_t chunk : {index_t{1}, index_t{2}, std::max<index_t>(1, kd - 1), kd + 3, n}) {
        CAPTURE(n);
        CAPTURE(kd);
        CAPTURE(first);
        CAPTURE(chunk);
        std::vector<float> reflected(static_cast<std::size_t>((n - first) * pitch), -1.0f);
        index_t next = 0, too_large = 0;
        band::reflected_band_rows<float>(csr, layout, first, chunk, [&](index_t row, index_t rows, const float* data) {
          CHECK(row == next);
          too_large += rows > chunk || rows < 1;
          std::copy(data, data + rows * pitch, reflected.begin() + row * pitch);
          next = row + rows;
        });
        CHECK(next == n - first);
        CHECK(too_large == 0);
        index_t wrong = 0;
        for (index_t i = 0; i < n - first; ++i)
          for (index_t j = i - window; j <= i; ++j) {
            const double expected = j >= 0 && i - j <= kd ? whole[layout.offset(n - 1 - j, n - 1 - i)] : 0.0;
            wrong += reflected[layout.offset(i, j)] != static_cast<float>(expected);
          }
        CHECK(wrong == 0);
      }
    }
  }
}

TEST_CASE("the two-sided load holds the one-sided band's top rows and its reflected bottom rows") {
  kernels::cpu::BlasBackend cpu;
  // n and kd off the tiles and blocks, splits at both ends and one row in.
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{2, 1, 1}, {40, 7, 3}, {301, 29, 8},
                                     {777, 65, 64}}) {
    const CsrMatrix csr = band_with_holes(n, kd, static_cast<unsigned>(n));
    const band::BandLayout layout = band::make_layout(csr, block);
    for (const index_t m : {index_t{0}, index_t{1}, (n - kd) / 2, n - kd - 1, n - kd}) {
      if (m < 0 || m > n - layout.bandwidth) continue;
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(m);
      const auto d = twisted_load_against_reflection<double>(cpu, csr, layout, m);
      CHECK(d.top == 0);
      CHECK(d.bottom == 0);
      const auto f = twisted_load_against_reflection<float>(cpu, csr, layout, m);
      CHECK(f.top == 0);
      CHECK(f.bottom == 0);
    }
  }
  // n + kd rows of pitch kd + block (rounded up to 8) + 1, the separator's two kd x kd blocks and
  // the bottom band's alignment.
  CHECK(band::twisted_bytes({300, 10, 8}, 4) == ((300 + 10) * 25 + 2 * 10 * 10) * 4 + band::kBottomAlignment);
  // As load_band, it refuses a band the back-end's memory cannot hold, naming it.
  const CsrMatrix far = corners_apart(3'000'000);
  const band::BandLayout layout = band::make_layout(far, 64);
  CHECK_THROWS_WITH_AS(band::load_twisted_band<double>(cpu, far, layout, band::twisted_split(layout.n, layout.bandwidth, 0)),
                       doctest::Contains("the two-sided band of 3000000 equations"), SolveFailure);
}

TEST_CASE("allocate_twisted puts the bottom band right after the top's rows, aligned") {
  kernels::cpu::BlasBackend cpu;
  const band::BandLayout layout{1001, 37, 8};  // pitch 49: the top's rows end off the alignment
  const auto t = band::allocate_twisted<double>(cpu, layout, band::twisted_split(layout.n, layout.bandwidth, 300));
  CHECK(t.top.layout.n == 337);
  CHECK(t.bottom.layout.n == 701);
  const auto top_end = reinterpret_cast<std::uintptr_t>(t.top.rows() + t.top.layout.elements()),
             bottom = reinterpret_cast<std::uintptr_t>(t.bottom.rows());
  CHECK(bottom % band::kBottomAlignment == 0);
  CHECK(bottom >= top_end);
  CHECK(bottom < top_end + band::kBottomAlignment);
  CHECK(t.bytes() == ((337 + 701) * 49 + 2 * 37 * 37) * sizeof(double) + band::kBottomAlignment);
  CHECK(t.bytes() == band::twisted_bytes(layout, sizeof(double)));
}

TEST_CASE("two-sided band Cholesky on the host matches the one-sided solve and names the failing equation") {
  kernels::cpu::BlasBackend cpu;
  const auto walker = [&]<class T>(T) {
    return band::Walker<T>([&](const band::BandOnBackend<T>& half, int, int) { band::factor(cpu, half, band::Schedule::in_order); });
  };
  unsigned seed = 300;
  // Splits at both ends (T or B empty), odd ones, the balanced one; blocks that cut the separator.
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{2, 1, 1}, {40, 7, 3}, {301, 29, 8},
                                     {1001, 70, 32}, {777, 65, 64}}) {
    for (const index_t m : {index_t{0}, index_t{1}, (n - kd) / 2, n - kd - 1, n - kd}) {
      if (m < 0 || m > n - kd) continue;
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(block);
      CAPTURE(m);
      CHECK(twisted_against_one_sided<double>(cpu, walker(0.0), n, kd, m, block, 3, ++seed) < 1e-11);
      CHECK(twisted_against_one_sided<float>(cpu, walker(0.0f), n, kd, m, block, 2, ++seed) < 2e-4);
    }
  }
  CHECK_THROWS_AS(band::twisted_split(100, 10, 91), std::invalid_argument);
  CHECK_THROWS_AS(band::twisted_split(100, 0, 50), std::invalid_argument);
  CHECK(band::balanced_split(1000, 100).m == 450);

  // A negative diagonal entry on a diagonally dominant band fails at its own row whatever the
  // order: in T (top walker), in S (top walker, as one-sided), in B (bottom walker, reflected).
  const index_t n = 400, kd = 30, m = 150;
  for (const index_t bad : {index_t{0}, index_t{149}, index_t{150}, index_t{170}, index_t{179}, index_t{180},
                            index_t{300}, index_t{399}}) {
    CAPTURE(bad);
    auto a = random_spd_band(n, kd, 77);
    a[bad * n + bad] = -1.0;
    CHECK(twisted_failure<double>(cpu, walker(0.0), a, n, m, 16) == bad);
  }
  CHECK(twisted_failure<double>(cpu, walker(0.0), separator_fails(), 3, 1, 1) == 1);
  CHECK(twisted_failure<double>(cpu, walker(0.0), random_spd_band(n, kd, 78), n, m, 16) == -1);
}

TEST_CASE("the direct solvers' device kernels are picked for the cublas back-end only") {
  for (const char* host : {"serial", "openmp", "blas"}) {
    CAPTURE(host);
    CHECK(band::direct_kernels_for(*kernels::make_dense_backend(host)) == nullptr);
  }
  if (kernels::dense_backend_status("cublas").available)
    CHECK(band::direct_kernels_for(*kernels::make_dense_backend("cublas")) != nullptr);
}

// band-cholesky:cuda against band-cholesky:cpu (double and mixed precision) on random SPD band
// matrices, with the band on the device and streamed through a small device-memory budget; the
// CUDA factorisation against the CPU one on awkward sizes and block sizes, with each panel
// method, on the whole device or with the trailing update in a green context; two factorisations
// at once from two host threads; the failing pivot named on both paths and by each panel method;
// the block column kernel against a host factorisation. Skipped without a CUDA device.
#include <doctest/doctest.h>

#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "fem/config.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "kernels/cpu/blas_backend.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"
#include "tests/solvers/direct/twisted_test_cases.hpp"
#if FEM_WITH_CUDA
#include <cuda_runtime.h>

#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/band_cholesky_cuda.hpp"
#include "kernels/cuda/band_cholesky_persistent.hpp"
#include "kernels/cuda/solve_under_diagonal.hpp"
#endif

using namespace fem;
using band::index_t;
using namespace band_tests;  // the random SPD band matrices and their comparison

namespace {

// A sparse SPD band matrix with n rows built directly in CSR (a dense n x n would not fit):
// the 5-point Laplacian of an m x (n/m) grid plus a small shift, bandwidth m, rows scaled at random.
CsrMatrix grid_laplacian(index_t n, index_t m, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> scale(0.5, 2.0);
  std::vector<double> s(n);
  for (auto& v : s) v = scale(rng);
  CsrMatrix a;
  a.rows = n;
  for (index_t i = 0; i < n; ++i) {
    for (const index_t j : {i - m, i - 1, i, i + 1, i + m}) {
      if (j < 0 || j >= n || ((j == i - 1 || j == i + 1) && std::min(i, j) % m == m - 1)) continue;
      a.col.push_back(static_cast<std::int32_t>(j));
      a.val.push_back((j == i ? 4.001 : -1.0) * s[i] * s[j]);
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

// Whether band-cholesky:cuda can be made with `options` here (a device, a CUDA build).
bool cuda_band_solver_available(const SolverOptions& options) {
  try {
    make_band_cholesky_cuda(options);
    return true;
  } catch (const SolverUnavailable&) {
    return false;
  }
}

// The grid Laplacian of the failure tests (5000 equations, bandwidth 70) with the diagonal of
// equation kIndefinite negated: no longer positive definite there.
constexpr index_t kIndefinite = 3001;
CsrMatrix indefinite_laplacian() {
  CsrMatrix a = grid_laplacian(5000, 70, 9);
  for (auto k = a.row_ptr[kIndefinite]; k < a.row_ptr[kIndefinite + 1]; ++k)
    if (a.col[k] == kIndefinite) a.val[k] = -a.val[k];
  return a;
}

}  // namespace

TEST_CASE("band-cholesky:cuda agrees with the CPU solver") {
  SolverOptions options;
  options.device = Device::Cuda;
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_band_cholesky_cuda(options);
  } catch (const SolverUnavailable& e) {
    std::cout << "skipped: " << e.what() << "\n";
    return;
  }
  for (const auto& [n, m] : {std::pair<index_t, index_t>{1, 1}, {777, 5}, {20011, 130}, {60000, 300}}) {
    CAPTURE(n);
    CAPTURE(m);
    const CsrMatrix a = grid_laplacian(n, m, 5);
    std::vector<double> rhs(n);
    for (index_t i = 0; i < n; ++i) rhs[i] = std::sin(0.37 * i) + 0.1;
    std::vector<double> u_cpu(n), u_gpu(n), u_mixed(n);
    make_band_cholesky_cpu({})->solve(AssembledSystem{a, rhs}, u_cpu);
    const auto report = gpu->solve(AssembledSystem{a, rhs}, u_gpu);
    CHECK(max_rel_diff(u_gpu, u_cpu) < 1e-10);
    CHECK(report.residual < 1e-12);
    options.precision = Precision::Mixed;
    const auto mixed = make_band_cholesky_cuda(options)->solve(AssembledSystem{a, rhs}, u_mixed);
    options.precision = Precision::Double;
    CHECK(max_rel_diff(u_mixed, u_cpu) < 1e-9);
    CHECK(mixed.residual <= 1e-10);
  }
}

TEST_CASE("band-cholesky:cuda that cannot hold the two-sided layout factors one-sided, on the one-sided blocks") {
  SolverOptions options;
  options.device = Device::Cuda;
  if (!cuda_band_solver_available(options)) return;
  // kd = 3504 (a multiple of 8: the device's own, band::device_bandwidth), long enough for
  // two-sided: its blocks are 384 wide, one-sided ones 256 (band_of_csr.cpp). Room for the
  // one-sided band of 256-column blocks, not for the two-sided layout: one-sided on the device, on
  // 256 columns (on 384 it did not fit and streamed).
  const index_t kd = 3504, n = band::kTwistedFromLength * kd;
  REQUIRE(band::device_bandwidth(kd, n) == kd);
  const CsrMatrix a = grid_laplacian(n, kd, 16);
  std::vector<double> rhs(n), u(n);
  for (index_t i = 0; i < n; ++i) rhs[i] = std::sin(0.13 * i) + 0.2;
  const band::BandLayout one_sided{n, kd, 256}, two_sided{n, kd, 384};
  const std::size_t room = one_sided.elements() * sizeof(double);
  REQUIRE(two_sided.elements() * sizeof(double) > room);
  REQUIRE(band::twisted_bytes(two_sided, sizeof(double)) > room);
  const auto report = make_band_cholesky_cuda_within(options, room)->solve(AssembledSystem{a, rhs}, u);
  CHECK(report.figures.at("two_sided") == 0);
  CHECK(report.figures.at("device_chunks") == 0);
  CHECK(report.figures.at("block_size") == 256);
  CHECK(report.figures.at("factor_bytes") == static_cast<double>(room));
  CHECK(report.residual < 1e-10);
}

TEST_CASE("band-cholesky:cuda factors two-sided where the band is long and the device holds its two-sided layout") {
  SolverOptions options;
  options.device = Device::Cuda;
  if (!cuda_band_solver_available(options)) return;
  const index_t n = 20011, m = 130;
  const CsrMatrix a = grid_laplacian(n, m, 15);
  std::vector<double> rhs(n);
  for (index_t i = 0; i < n; ++i) rhs[i] = std::cos(0.29 * i) + 0.3;
  std::vector<double> u_cpu(n), u(n);
  make_band_cholesky_cpu({})->solve(AssembledSystem{a, rhs}, u_cpu);
  const auto solve = [&](const SolverOptions& o, std::size_t device_bytes, const CsrMatrix& matrix) {
    return make_band_cholesky_cuda_within(o, device_bytes)->solve(AssembledSystem{matrix, rhs}, u);
  };
  // FP64, kd = 130: the persistent kernels from both ends.
  auto report = solve(options, 0, a);
  CHECK(report.figures.at("two_sided") == 1);
  CHECK(report.figures.at("persistent_kernel") == 1);
  CHECK(max_rel_diff(u, u_cpu) < 1e-10);
  // It takes the two-sided layout of the device's half-bandwidth (m rounded up to 8): kd rows, the
  // separator's two kd x kd blocks and the bottom band's alignment more than the band.
  const index_t kd = band::device_bandwidth(m, n);
  REQUIRE(kd == 136);
  const band::BandLayout layout{n, kd, 64};
  const std::size_t band_bytes = layout.elements() * sizeof(double),
                    twisted_bytes = band::twisted_bytes(layout, sizeof(double));
  CHECK(twisted_bytes == band_bytes + static_cast<std::size_t>(kd * layout.pitch() + 2 * kd * kd) * sizeof(double) +
                             band::kBottomAlignment);
  CHECK(report.figures.at("factor_bytes") == static_cast<double>(twisted_bytes));
  // Exactly that room: two-sided; room for the band but not for those kd rows more: one-sided, on
  // the device.
  report = solve(options, twisted_bytes, a);
  CHECK(report.figures.at("two_sided") == 1);
  CHECK(max_rel_diff(u, u_cpu) < 1e-10);
  report = solve(options, twisted_bytes - 1, a);
  CHECK(report.figures.at("two_sided") == 0);
  CHECK(report.figures.at("device_chunks") == 0);
  CHECK(report.figures.at("factor_bytes") == static_cast<double>(band_bytes));
  CHECK(max_rel_diff(u, u_cpu) < 1e-10);
  // FP32 (mixed): the cublas chains from both ends.
  options.precision = Precision::Mixed;
  report = solve(options, 0, a);
  CHECK(report.figures.at("two_sided") == 1);
  CHECK(report.figures.at("persistent_kernel") == 0);
  CHECK(report.figures.at("factor_precision_bits") == 32);
  CHECK(max_rel_diff(u, u_cpu) < 1e-9);
  // A band shorter than kTwistedFromLength half-bandwidths: one-sided.
  options.precision = Precision::Double;
  const index_t short_n = band::kTwistedFromLength * kd - 1;
  const CsrMatrix short_band = grid_laplacian(short_n, m, 16);
  rhs.resize(short_n);
  u.resize(short_n);
  report = solve(options, 0, short_band);
  CHECK(report.figures.at("two_sided") == 0);
  CHECK(report.residual < 1e-12);
}

TEST_CASE("band-cholesky:cuda names the failing equation") {
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_band_cholesky_cuda({});
  } catch (const SolverUnavailable&) {
    return;
  }
  const CsrMatrix a = indefinite_laplacian();
  const std::vector<double> rhs(5000, 1.0);
  std::vector<double> u(5000);
  try {
    gpu->solve(AssembledSystem{a, rhs}, u);
    FAIL("no failure reported");
  } catch (const SolveFailure& e) {
    CHECK(e.equation() == kIndefinite);
  }
}

TEST_CASE("band-cholesky:cuda streams a band larger than its device memory") {
  if (!kernels::dense_backend_status("cublas").available) return;
  for (const auto& [n, m] : {std::pair<index_t, index_t>{20011, 130}, {60000, 300}}) {
    CAPTURE(n);
    CAPTURE(m);
    const CsrMatrix a = grid_laplacian(n, m, 11);
    std::vector<double> rhs(n);
    for (index_t i = 0; i < n; ++i) rhs[i] = std::cos(0.11 * i) - 0.2;
    std::vector<double> u_cpu(n), u_gpu(n), u_mixed(n);
    make_band_cholesky_cpu({})->solve(AssembledSystem{a, rhs}, u_cpu);
    // About a twentieth of the band: many chunks, each a few block columns.
    const std::size_t budget = static_cast<std::size_t>(n) * static_cast<std::size_t>(2 * m) * sizeof(double) / 20;
    SolverOptions options;
    options.device = Device::Cuda;
    const auto report = make_band_cholesky_cuda_within(options, budget)->solve(AssembledSystem{a, rhs}, u_gpu);
    CHECK(report.figures.at("device_chunks") > 5);
    CHECK(max_rel_diff(u_gpu, u_cpu) < 1e-10);
    CHECK(report.residual < 1e-12);
    options.precision = Precision::Mixed;
    const auto mixed = make_band_cholesky_cuda_within(options, budget)->solve(AssembledSystem{a, rhs}, u_mixed);
    CHECK(mixed.figures.at("device_chunks") > 5);
    CHECK(mixed.figures.at("factor_precision_bits") == 32);
    CHECK(max_rel_diff(u_mixed, u_cpu) < 1e-9);
    CHECK(mixed.residual <= 1e-10);
  }
}

TEST_CASE("band-cholesky:cuda names the failing equation when streaming") {
  if (!kernels::dense_backend_status("cublas").available) return;
  const CsrMatrix a = indefinite_laplacian();
  const std::vector<double> rhs(5000, 1.0);
  std::vector<double> u(5000);
  try {
    make_band_cholesky_cuda_within({}, 5000 * 140 * sizeof(double) / 8)->solve(AssembledSystem{a, rhs}, u);
    FAIL("no failure reported");
  } catch (const SolveFailure& e) {
    CHECK(e.equation() == kIndefinite);
    CHECK(std::string(e.what()).find("equation 3001") != std::string::npos);
  }
}

#if FEM_WITH_CUDA
namespace {

// The stored lower band of a factor, row by row (kd + 1 entries a row), off any back-end.
template <class T>
std::vector<double> lower_band(kernels::DenseBackend& backend, const band::BandOnBackend<T>& f) {
  const band::BandLayout& l = f.layout;
  std::vector<T> stored(l.elements());
  backend.download(f.storage, stored.data(), l.pitch());
  std::vector<double> out(static_cast<std::size_t>(l.n * (l.bandwidth + 1)));
  for (index_t i = 0; i < l.n; ++i)
    for (index_t j = std::max<index_t>(0, i - l.bandwidth); j <= i; ++j)
      out[i * (l.bandwidth + 1) + j - i + l.bandwidth] = stored[l.offset(i, j)];
  return out;
}

}  // namespace

TEST_CASE("the CUDA band factorisation matches the CPU one on awkward sizes, on the device and streamed") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  kernels::cpu::BlasBackend cpu;
  unsigned seed = 40;
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{1, 0, 1}, {100, 5, 3}, {257, 64, 17},
                                     {257, 256, 100}, {1000, 100, 64}, {3001, 250, 96}, {2500, 400, 512}}) {
    CAPTURE(n);
    CAPTURE(kd);
    CAPTURE(block);
    const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, ++seed), n);
    band::BandLayout layout = band::make_layout(csr, block);
    layout.block = std::min(block, std::max<index_t>(layout.bandwidth, 1));
    auto reference = band::load_band<double>(cpu, csr, layout);
    band::factor(cpu, reference, band::Schedule::in_order);
    const auto expected = lower_band(cpu, reference);

    auto on_device = band::load_band<double>(*gpu, csr, layout);
    kernels::cuda::factor_on_device(on_device.layout, on_device.rows());
    CHECK(max_rel_diff(lower_band(*gpu, on_device), expected) < 1e-12);

    // The smallest budget (one block column a chunk) and a few block columns a chunk.
    for (const std::size_t budget : {kernels::cuda::min_streaming_bytes(layout, sizeof(double)),
                                     kernels::cuda::min_streaming_bytes(layout, sizeof(double)) * 3}) {
      CAPTURE(budget);
      auto streamed = band::load_band<double>(cpu, csr, layout);
      double* rows = streamed.rows();
      const int chunks = kernels::cuda::factor_streamed(layout, rows, budget);
      const index_t per_chunk = kernels::cuda::chunk_rows(layout, budget, sizeof(double));
      CHECK(chunks == (n + per_chunk - 1) / per_chunk);
      CHECK(max_rel_diff(lower_band(cpu, streamed), expected) < 1e-12);
    }
    CHECK_THROWS_AS(kernels::cuda::factor_streamed(layout, static_cast<double*>(nullptr),
                                                kernels::cuda::min_streaming_bytes(layout, sizeof(double)) - 1),
                    std::invalid_argument);
  }
}

TEST_CASE("the persistent CUDA band factorisation matches the CPU one") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  kernels::cpu::BlasBackend cpu;
  unsigned seed = 140;
  // Bandwidths around the 32-row strips and 64-column tiles (up to 64: no update task, the
  // strips apply the block column before them), n that cut the last tile, a band reaching 16
  // tiles (many tasks waiting on one another), a block wider than the tiles (more padding in
  // each row), and a dense matrix (more strips a block column than blocks that take strips);
  // kd + block even and odd (the window rounded up to a multiple of 8: the updates' entries two at a time).
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{1, 0, 64}, {200, 0, 64}, {100, 5, 64},
                                     {257, 31, 64}, {640, 64, 64}, {645, 65, 64}, {700, 129, 64}, {1000, 100, 64},
                                     {3001, 250, 64}, {2500, 400, 100}, {3000, 1000, 64}, {3000, 2999, 64}}) {
    CAPTURE(n);
    CAPTURE(kd);
    CAPTURE(block);
    const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, ++seed), n);
    band::BandLayout host_layout = band::make_layout(csr, std::min<index_t>(64, std::max<index_t>(kd, 1)));
    auto reference = band::load_band<double>(cpu, csr, host_layout);
    band::factor(cpu, reference, band::Schedule::in_order);
    const auto expected = lower_band(cpu, reference);
    // Each update kernel's shape (1 worker a block and 4 tiles a task, 2 and 2, 3 and 1) on the
    // whole device, and on three multiprocessors: one strip block, two update blocks (the tasks
    // waiting on one another most).
    for (const kernels::cuda::PersistentGrid grid :
         {kernels::cuda::PersistentGrid{0, 0, 1}, {0, 0, 2}, {0, 0, 3}, {3, 1, 1}, {3, 1, 2}, {3, 1, 3}}) {
      CAPTURE(grid.max_blocks);
      CAPTURE(grid.update_workers);
      auto on_device = band::load_band<double>(*gpu, csr, band::make_layout(csr, block));
      kernels::cuda::factor_persistent(on_device.layout, on_device.rows(), nullptr, grid);
      CHECK(max_rel_diff(lower_band(*gpu, on_device), expected) < 1e-12);
    }
  }
  band::BandLayout narrow{100, 5, 32};
  CHECK_THROWS_AS(kernels::cuda::factor_persistent(narrow, nullptr), std::invalid_argument);
  band::BandLayout fine{100, 5, 64};
  CHECK_THROWS_AS(kernels::cuda::factor_persistent(fine, nullptr, nullptr, {0, 0, 4}), std::invalid_argument);
}

TEST_CASE("the persistent CUDA band factorisation names the first failing pivot") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  const index_t n = 2000, kd = 150;
  for (const index_t bad : {0, 517, 1999}) {
    CAPTURE(bad);
    auto a = random_spd_band(n, kd, 7);
    a[bad * n + bad] = -1.0;
    const CsrMatrix csr = dense_to_csr(a, n);
    auto on_device = band::load_band<double>(*gpu, csr, band::make_layout(csr, 64));
    try {
      kernels::cuda::factor_persistent(on_device.layout, on_device.rows());
      FAIL("no failure reported");
    } catch (const kernels::NotPositiveDefinite& e) {
      CHECK(e.column() == bad);
    }
  }
}

#if FEM_WITH_CUDA
namespace {

// The two-sided factorisation's walkers on the device: persistent kernels on their share of the
// blocks (the strips on `strip_blocks` of them where given: 3, the strips waiting on one another
// more), or cublas chains by the solver's rule.
band::Walker<double> persistent_walker(int strip_blocks = 0) {
  return [strip_blocks](const band::BandOnBackend<double>& half, int, int parts) {
    kernels::cuda::factor_persistent(half.layout, half.rows(), nullptr,
                                     {kernels::cuda::persistent_blocks() / parts, parts > 1 ? strip_blocks : 0});
  };
}
template <class T>
band::Walker<T> chain_walker() {
  return [](const band::BandOnBackend<T>& half, int, int parts) {
    kernels::cuda::factor_on_device(half.layout, half.rows(), kernels::cuda::device_schedule(half.layout, parts > 1));
  };
}

// The splits of a band of n rows and half-bandwidth kd the two-sided tests try: at both ends (T
// or B empty), one row in, the balanced one and an odd one.
std::vector<index_t> test_splits(index_t n, index_t kd) {
  std::vector<index_t> splits{0, 1, (n - kd) / 2, (n - kd) / 3 + 7, n - kd - 1, n - kd};
  std::erase_if(splits, [&](index_t m) { return m < 0 || m > n - kd; });
  return splits;
}

}  // namespace

TEST_CASE("the two-sided CUDA band factorisation solves as the one-sided CPU one, with either walker") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  unsigned seed = 500;
  // n and kd off the 64-row tiles, a block wider than the tiles, a band of 16 tiles, blocks of 256
  // (the chains' solve panel, as two chains at once take it).
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{130, 1, 64}, {777, 65, 64},
                                     {3001, 250, 64}, {2500, 400, 100}, {6007, 1030, 64}, {4099, 600, 256}}) {
    for (const index_t m : test_splits(n, kd)) {
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(block);
      CAPTURE(m);
      CHECK(twisted_against_one_sided<double>(*gpu, persistent_walker(), n, kd, m, block, 3, ++seed) < 1e-10);
      CHECK(twisted_against_one_sided<double>(*gpu, persistent_walker(3), n, kd, m, block, 1, ++seed) < 1e-10);
      // The chain's blocks are at most the bandwidth (as the solver makes them).
      const index_t chain_block = std::min(block, kd);
      CHECK(twisted_against_one_sided<double>(*gpu, chain_walker<double>(), n, kd, m, chain_block, 2, ++seed) < 1e-10);
      CHECK(twisted_against_one_sided<float>(*gpu, chain_walker<float>(), n, kd, m, chain_block, 2, ++seed) < 1e-3);
    }
  }
}

TEST_CASE("two persistent walkers side by side never wait for each other: short two-sided bands, many times") {
  // One walker's release of its flags (cudaFree) once waited for every kernel of the process while
  // the other's strip kernel ran, which waited for its update kernel, whose launch waited for that
  // release: a deadlock that the watchdog broke, in 12 of 30 runs of 100 such bands on the H100.
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  unsigned seed = 900;
  for (int round = 0; round < 60; ++round)
    for (const auto& [n, kd] : {std::pair<index_t, index_t>{401, 400}, {465, 400}, {401, 300}}) {
      CAPTURE(round);
      CAPTURE(n);
      CAPTURE(kd);
      CHECK(twisted_against_one_sided<double>(*gpu, persistent_walker(), n, kd, (n - kd) / 2, 64, 1, ++seed) < 1e-10);
    }
}

TEST_CASE("the two-sided load on the device holds the one-sided band's top rows and its reflected bottom rows") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  for (const auto& [n, kd, block] : {std::tuple<index_t, index_t, index_t>{130, 1, 64}, {777, 65, 64},
                                     {3001, 250, 100}}) {
    const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, static_cast<unsigned>(n)), n);
    const band::BandLayout layout = band::make_layout(csr, block);
    for (const index_t m : test_splits(n, kd)) {
      CAPTURE(n);
      CAPTURE(kd);
      CAPTURE(m);
      const auto d = twisted_load_against_reflection<double>(*gpu, csr, layout, m);
      CHECK(d.top == 0);
      CHECK(d.bottom == 0);
      const auto f = twisted_load_against_reflection<float>(*gpu, csr, layout, m);
      CHECK(f.top == 0);
      CHECK(f.bottom == 0);
    }
  }
}

TEST_CASE("the two-sided CUDA band factorisation names the failing equation in T, S and B") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  const index_t n = 2000, kd = 150, m = 900;  // T = [0, 900), S = [900, 1050), B = [1050, 2000)
  for (const index_t bad : {index_t{0}, index_t{517}, index_t{899}, index_t{900}, index_t{1000}, index_t{1049},
                            index_t{1050}, index_t{1400}, index_t{1999}}) {
    CAPTURE(bad);
    auto a = random_spd_band(n, kd, 7);
    a[bad * n + bad] = -1.0;
    CHECK(twisted_failure<double>(*gpu, persistent_walker(), a, n, m, 64) == bad);
    CHECK(twisted_failure<double>(*gpu, chain_walker<double>(), a, n, m, 64) == bad);
  }
  CHECK(twisted_failure<double>(*gpu, persistent_walker(), separator_fails(), 3, 1, 64) == 1);
  CHECK(twisted_failure<double>(*gpu, chain_walker<double>(), separator_fails(), 3, 1, 1) == 1);
}
#endif

namespace {
constexpr kernels::cuda::PanelMethod kPanelMethods[] = {kernels::cuda::PanelMethod::left_looking_kernels,
                                                        kernels::cuda::PanelMethod::right_looking_kernels,
                                                        kernels::cuda::PanelMethod::right_looking_ahead,
                                                        kernels::cuda::PanelMethod::right_looking_solve};

kernels::cuda::DeviceSchedule schedule_with(kernels::cuda::PanelMethod method, int panel_sms = 0) {
  kernels::cuda::DeviceSchedule schedule;
  schedule.panel = method;
  schedule.panel_sms = panel_sms;
  return schedule;
}
}  // namespace

TEST_CASE("every panel method of the CUDA band factorisation matches the CPU factor, on all or part of the device, "
          "the trailing update beside the look-ahead or after it") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  kernels::cpu::BlasBackend cpu;
  unsigned seed = 240;
  // Blocks of one kernel's width (64), of one diagonal block (128), of several (256, 384, 512),
  // one cut short (200: 128 + 72), one as wide as the band (600), one of 128 + 1 (129: the band
  // cuts 384 down), and n that cut the last block.
  for (const auto& [n, kd, block] :
       {std::tuple<index_t, index_t, index_t>{900, 200, 64}, {1000, 130, 128}, {1001, 300, 256}, {2000, 500, 384},
        {1500, 700, 200}, {3000, 1000, 512}, {1300, 600, 600}, {700, 129, 384}}) {
    CAPTURE(n);
    CAPTURE(kd);
    CAPTURE(block);
    const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, ++seed), n);
    band::BandLayout layout = band::make_layout(csr, block);
    layout.block = std::min(block, layout.bandwidth);
    auto reference = band::load_band<double>(cpu, csr, layout);
    band::factor(cpu, reference, band::Schedule::in_order);
    const auto expected = lower_band(cpu, reference);
    // Each option of the schedule on and off.
    for (const auto method : kPanelMethods)
      for (const auto& [panel_sms, after_look_ahead] :
           {std::pair<int, bool>{0, false}, {16, true}, {0, true}, {16, false}}) {
        CAPTURE(static_cast<int>(method));
        CAPTURE(panel_sms);
        CAPTURE(after_look_ahead);
        auto schedule = schedule_with(method, panel_sms);
        schedule.trailing_after_look_ahead = after_look_ahead;
        auto on_device = band::load_band<double>(*gpu, csr, layout);
        kernels::cuda::factor_on_device(on_device.layout, on_device.rows(), schedule);
        CHECK(max_rel_diff(lower_band(*gpu, on_device), expected) < 1e-12);
      }
  }
}

TEST_CASE("two CUDA band factorisations from two host threads at once each match the CPU factor") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  kernels::cpu::BlasBackend cpu;
  // Two different bands (sizes, blocks, so panel methods), long enough to overlap on the device:
  // the rule's schedules, both on every multiprocessor the panels leave, then each on its own half.
  const CsrMatrix first = grid_laplacian(60000, 700, 31), second = grid_laplacian(45001, 450, 32);
  const band::BandLayout layouts[] = {band::make_layout(first, 256), band::make_layout(second, 128)};
  const CsrMatrix* matrices[] = {&first, &second};
  std::vector<double> expected[2];
  for (int k = 0; k < 2; ++k) {
    auto reference = band::load_band<double>(cpu, *matrices[k], layouts[k]);
    band::factor(cpu, reference, band::Schedule::in_order);
    expected[k] = lower_band(cpu, reference);
  }
  for (const int parts : {1, 2}) {
    CAPTURE(parts);
    for (int round = 0; round < 2; ++round) {  // the second round finds the first's kernels set up
      std::vector<band::BandOnBackend<double>> bands;
      for (int k = 0; k < 2; ++k) bands.push_back(band::load_band<double>(*gpu, *matrices[k], layouts[k]));
      std::string failures[2];
      std::vector<std::thread> threads;
      for (int k = 0; k < 2; ++k)
        threads.emplace_back([&, k] {
          try {
            auto schedule = kernels::cuda::device_schedule(layouts[k]);
            schedule.panel_sms = std::max(schedule.panel_sms, 8);
            schedule.update_part = parts == 1 ? 0 : k;
            schedule.update_parts = parts;
            kernels::cuda::factor_on_device(bands[k].layout, bands[k].rows(), schedule);
          } catch (const std::exception& e) {
            failures[k] = e.what();
          }
        });
      for (auto& t : threads) t.join();
      for (int k = 0; k < 2; ++k) {
        CAPTURE(k);
        CHECK(failures[k].empty());
        CHECK(max_rel_diff(lower_band(*gpu, bands[k]), expected[k]) < 1e-12);
      }
    }
  }
}

TEST_CASE("the timed CUDA band factorisation factors as the untimed one, each step's times in order") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  const index_t n = 3000, kd = 500, block = 256;
  const CsrMatrix csr = dense_to_csr(random_spd_band(n, kd, 21), n);
  const band::BandLayout layout = band::make_layout(csr, block);
  const auto schedule = schedule_with(kernels::cuda::PanelMethod::right_looking_ahead, 8);
  auto untimed = band::load_band<double>(*gpu, csr, layout);
  kernels::cuda::factor_on_device(untimed.layout, untimed.rows(), schedule);
  auto timed = band::load_band<double>(*gpu, csr, layout);
  const auto times = kernels::cuda::factor_on_device_timed(timed.layout, timed.rows(), schedule);
  CHECK(max_rel_diff(lower_band(*gpu, timed), lower_band(*gpu, untimed)) == 0);
  REQUIRE(times.size() == static_cast<std::size_t>((n + block - 1) / block));
  // Every step but the last (column 2816) has a window below it.
  for (std::size_t k = 0; k + 1 < times.size(); ++k) {
    CAPTURE(k);
    CHECK(times[k].trailing_start <= times[k].trailing_end);
    CHECK(times[k].panel_start <= times[k].panel_end);
    CHECK(times[k].panel_end > 0);
    if (k > 0) CHECK(times[k - 1].panel_end <= times[k].panel_start);
    if (k > 0) CHECK(times[k - 1].queued <= times[k].queued);
  }
  CHECK(times.back().panel_end == 0);
  CHECK(times.front().panel_marks.empty());  // right_looking_ahead: no panel marks

  // right_looking_solve: the panel's marks, 1 + 3 a kernel, in order inside each step's panel.
  auto solved = band::load_band<double>(*gpu, csr, layout);
  const auto marked = kernels::cuda::factor_on_device_timed(
      solved.layout, solved.rows(), schedule_with(kernels::cuda::PanelMethod::right_looking_solve, 8));
  CHECK(max_rel_diff(lower_band(*gpu, solved), lower_band(*gpu, untimed)) < 1e-12);
  for (std::size_t k = 0; k + 2 < marked.size(); ++k) {  // the steps whose next block column is whole
    CAPTURE(k);
    const auto& m = marked[k].panel_marks;
    REQUIRE(m.size() == 13);
    CHECK(marked[k].panel_start <= m.front());
    for (std::size_t i = 1; i < m.size(); ++i) CHECK(m[i - 1] <= m[i]);
    CHECK(m.back() <= marked[k].panel_end);
  }
}

TEST_CASE("every panel method names the first failing pivot, wherever it is in a block column") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  const index_t n = 2000, kd = 300, block = 256;
  // The first column of a step, inside its first block column kernel, inside its third, and the
  // last column.
  for (const index_t bad : {index_t{512}, index_t{517}, index_t{3 * 256 + 128 + 17}, n - 1})
    for (const auto method : kPanelMethods) {
      CAPTURE(bad);
      CAPTURE(static_cast<int>(method));
      auto a = random_spd_band(n, kd, 11);
      a[bad * n + bad] = -1.0;
      const CsrMatrix csr = dense_to_csr(a, n);
      auto on_device = band::load_band<double>(*gpu, csr, band::make_layout(csr, block));
      try {
        kernels::cuda::factor_on_device(on_device.layout, on_device.rows(), schedule_with(method));
        FAIL("no failure reported");
      } catch (const kernels::NotPositiveDefinite& e) {
        CHECK(e.column() == bad);
      }
    }
}

TEST_CASE("the CUDA band factorisation names the first failing pivot, on the device and streamed") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  kernels::cpu::BlasBackend cpu;
  const index_t n = 900, kd = 60, bad = 517;  // 517 is inside a block column, not at its start
  auto a = random_spd_band(n, kd, 5);
  a[bad * n + bad] = -1.0;
  const CsrMatrix csr = dense_to_csr(a, n);
  const band::BandLayout layout = band::make_layout(csr, 32);
  auto on_device = band::load_band<double>(*gpu, csr, layout);
  try {
    kernels::cuda::factor_on_device(on_device.layout, on_device.rows());
    FAIL("no failure reported");
  } catch (const kernels::NotPositiveDefinite& e) {
    CHECK(e.column() == bad);
  }
  auto streamed = band::load_band<double>(cpu, csr, layout);
  try {
    kernels::cuda::factor_streamed(layout, streamed.rows(), kernels::cuda::min_streaming_bytes(layout, sizeof(double)) * 2);
    FAIL("no failure reported");
  } catch (const kernels::NotPositiveDefinite& e) {
    CHECK(e.column() == bad);
  }
}
#endif

#if FEM_WITH_CUDA
namespace {

// A block column of `w` columns and w + below rows, row-major with leading dimension ld (> w):
// an SPD diagonal block (G Gᵀ + w I) over random rows; the rest of each row (the upper part of
// the diagonal block, the columns past w) holds a sentinel that the kernel must leave alone.
constexpr double sentinel = 1e300;
std::vector<double> random_block_column(int w, long long below, long long ld, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> g(static_cast<std::size_t>(w * w)), m(static_cast<std::size_t>((w + below) * ld), sentinel);
  for (auto& v : g) v = u(rng);
  for (int i = 0; i < w; ++i)
    for (int j = 0; j <= i; ++j) {
      double sum = i == j ? w : 0;
      for (int k = 0; k < w; ++k) sum += g[i * w + k] * g[j * w + k];
      m[i * ld + j] = sum;
    }
  for (long long i = w; i < w + below; ++i)
    for (int j = 0; j < w; ++j) m[i * ld + j] = u(rng);
  return m;
}

// The reference: D := chol(D), B := B L⁻ᵀ, one column at a time in long double.
std::vector<double> factor_block_column_on_host(std::vector<double> m, int w, long long below, long long ld) {
  for (int j = 0; j < w; ++j) {
    const long double d = std::sqrt(static_cast<long double>(m[j * ld + j]));
    m[j * ld + j] = static_cast<double>(d);
    for (long long i = j + 1; i < w + below; ++i) m[i * ld + j] = static_cast<double>(m[i * ld + j] / d);
    for (long long i = j + 1; i < w + below; ++i)
      for (int c = j + 1; c < w && c <= i; ++c) m[i * ld + c] -= m[i * ld + j] * m[c * ld + j];
  }
  return m;
}

kernels::cuda::BlockColumn<double> block_column(long long ld, int w, long long below) {
  kernels::cuda::BlockColumn<double> c;
  c.ld = ld;
  c.width = w;
  c.below = below;
  c.bandwidth = w + below;
  return c;
}

// The block column kernel on a device copy of `m`, D at entry `diagonal` of it, pivot flags
// from `info_base`: m as the kernel left it, and the flag.
struct KernelRun {
  std::vector<double> m;
  int info = -1;
};
KernelRun run_kernel(const std::vector<double>& m, kernels::cuda::BlockColumn<double> column, std::size_t diagonal,
                     int info_base, const kernels::cuda::BlockColumnScratch& scratch) {
  kernels::cuda::DeviceBuffer<double> d(m);
  kernels::cuda::DeviceBuffer<int> info(1);
  info.zero();
  column.diagonal = d.get() + diagonal;
  kernels::cuda::block_column_cholesky(column, info.get(), info_base, scratch, nullptr);
  KernelRun run{std::vector<double>(m.size())};
  d.download(run.m.data());
  info.download(&run.info);
  return run;
}

// A band's block column with `left` factored columns before it, row-major with leading dimension
// left + w + 3: row r holds L_left(r, 0..left) then A(r, 0..w), D's rows first. Entries further
// than `bandwidth` from the diagonal (row left + r, column k) are zero in A, and NaN left of
// D (the kernel must not read them); D = G Gᵀ + w I + L_left(D) L_left(D)ᵀ stays SPD after the
// update. Past column left + w: the sentinel.
struct LeftLookingCase {
  int w, left;
  long long below, bandwidth, ld;
  std::vector<double> m;
};
LeftLookingCase left_looking_case(int w, int left, long long below, long long bandwidth, unsigned seed) {
  LeftLookingCase t{w, left, below, bandwidth, left + w + 3, {}};
  const long long rows = w + below, ld = t.ld;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  const auto in_band = [&](long long r, long long column) { return left + r - column <= bandwidth; };
  t.m.assign(static_cast<std::size_t>(rows * ld), sentinel);
  for (long long r = 0; r < rows; ++r)
    for (int k = 0; k < left; ++k) t.m[r * ld + k] = in_band(r, k) ? u(rng) : std::nan("");
  std::vector<double> g(static_cast<std::size_t>(w * w));
  for (auto& v : g) v = u(rng);
  const auto left_product = [&](long long r, int c) {  // (L_left L_leftᵀ)(r, c), NaNs as zeros
    double sum = 0;
    for (int k = 0; k < left; ++k)
      if (in_band(r, k) && in_band(c, k)) sum += t.m[r * ld + k] * t.m[c * ld + k];
    return sum;
  };
  for (long long r = 0; r < rows; ++r)
    for (int c = 0; c < w && (r >= w || c <= r); ++c) {
      double a = 0;
      if (r < w) {
        a = r == c ? w : 0;
        for (int k = 0; k < w; ++k) a += g[r * w + k] * g[c * w + k];
        a += left_product(r, c);
      } else if (in_band(r, left + c)) {
        a = u(rng);
      }
      t.m[r * ld + left + c] = a;
    }
  return t;
}

// The reference for a left-looking case: the update in long double, then the factorisation.
std::vector<double> expected_block_column(const LeftLookingCase& t) {
  const long long rows = t.w + t.below;
  std::vector<double> a(static_cast<std::size_t>(rows * t.w), sentinel);
  for (long long r = 0; r < rows; ++r)
    for (int c = 0; c < t.w && (r >= t.w || c <= r); ++c) {
      long double v = t.m[r * t.ld + t.left + c];
      for (int k = 0; k < t.left; ++k)
        if (t.left + r - k <= t.bandwidth && t.left + c - k <= t.bandwidth)
          v -= static_cast<long double>(t.m[r * t.ld + k]) * t.m[c * t.ld + k];
      a[r * t.w + c] = static_cast<double>(v);
    }
  return factor_block_column_on_host(a, t.w, t.below, t.w);
}

// A kernel's output against a long-double reference, where NaN marks entries it must neither
// read nor write: how many entries changed between NaN and a number (0 when it kept to its part),
// and the largest difference elsewhere relative to the largest expected entry.
struct NanMarkedComparison {
  int changed = 0;
  double relative_diff = 0;
};
NanMarkedComparison compare_nan_marked(const std::vector<double>& before, const std::vector<double>& got,
                                       const std::vector<long double>& expected) {
  NanMarkedComparison result;
  double diff = 0, scale = 0;
  for (std::size_t e = 0; e < got.size(); ++e) {
    if (std::isnan(before[e]) || std::isnan(got[e])) {
      result.changed += !(std::isnan(before[e]) && std::isnan(got[e]));
      continue;
    }
    diff = std::max(diff, static_cast<double>(std::abs(got[e] - expected[e])));
    scale = std::max(scale, static_cast<double>(std::abs(expected[e])));
  }
  result.relative_diff = diff / scale;
  return result;
}

}  // namespace

TEST_CASE("the block column kernel factors a diagonal block and solves the rows under it") {
  if (!kernels::dense_backend_status("cublas").available) return;
  const kernels::cuda::BlockColumnScratch scratch;
  unsigned seed = 70;
  // Widths around the 32-column slabs, heights around the 32-row strips; every launch reuses
  // the same scratch counter.
  for (const int w : {1, 7, 31, 32, 33, 50, 64})
    for (const long long below : {0LL, 1LL, 31LL, 32LL, 33LL, 300LL}) {
      CAPTURE(w);
      CAPTURE(below);
      const long long ld = w + 5;
      const auto m = random_block_column(w, below, ld, ++seed);
      const auto expected = factor_block_column_on_host(m, w, below, ld);
      const KernelRun run = run_kernel(m, block_column(ld, w, below), 0, 0, scratch);
      const std::vector<double>& got = run.m;
      CHECK(run.info == 0);
      double diff = 0, scale = 0;
      int touched = 0;  // sentinels the kernel wrote over
      for (std::size_t e = 0; e < got.size(); ++e) {
        if (expected[e] == sentinel) {
          touched += got[e] != sentinel;
          continue;
        }
        diff = std::max(diff, std::abs(got[e] - expected[e]));
        scale = std::max(scale, std::abs(expected[e]));
      }
      CHECK(touched == 0);
      CHECK(diff / scale < 1e-13);
    }
}

TEST_CASE("the block column kernel applies the update of the factored columns left of it") {
  if (!kernels::dense_backend_status("cublas").available) return;
  const kernels::cuda::BlockColumnScratch scratch;
  unsigned seed = 300;
  // One, a part of one, and several 64-column chunks on the left; a bandwidth that reaches all
  // of them and one that cuts the lower rows off the first ones.
  for (const int left : {64, 100, 192, 320})
    for (const int w : {64, 40})
      for (const long long below : {0LL, 33LL, 200LL})
        for (const long long bandwidth : {static_cast<long long>(left) + w + below, static_cast<long long>(left) + 20}) {
          CAPTURE(left);
          CAPTURE(w);
          CAPTURE(below);
          CAPTURE(bandwidth);
          const LeftLookingCase t = left_looking_case(w, left, below, bandwidth, ++seed);
          const auto expected = expected_block_column(t);
          kernels::cuda::BlockColumn<double> c = block_column(t.ld, w, below);
          c.left = left;
          c.bandwidth = bandwidth;
          const KernelRun run = run_kernel(t.m, c, static_cast<std::size_t>(left), 0, scratch);
          const std::vector<double>& got = run.m;
          CHECK(run.info == 0);
          double diff = 0, scale = 0;
          int changed = 0;  // entries outside the block column's lower part the kernel wrote over
          for (long long r = 0; r < w + below; ++r)
            for (long long k = 0; k < t.ld; ++k) {
              const double in = t.m[r * t.ld + k], out = got[r * t.ld + k];
              const long long c0 = k - left;
              if (c0 >= 0 && c0 < w && (r >= w || c0 <= r)) {
                diff = std::max(diff, std::abs(out - expected[r * w + c0]));
                scale = std::max(scale, std::abs(expected[r * w + c0]));
              } else {
                changed += !(out == in || (std::isnan(in) && std::isnan(out)));
              }
            }
          CHECK(changed == 0);
          CHECK(diff / scale < 1e-12);
        }
}

TEST_CASE("the block column kernel reports the first pivot that is not positive, past its offset") {
  if (!kernels::dense_backend_status("cublas").available) return;
  const kernels::cuda::BlockColumnScratch scratch;
  for (const int bad : {0, 17, 40, 63}) {
    CAPTURE(bad);
    const int w = 64;
    const long long below = 130, ld = 64;
    auto m = random_block_column(w, below, ld, 90 + bad);
    m[bad * ld + bad] = -10.0 * w * w;  // the pivot of column `bad` is negative, the ones before it are not
    CHECK(run_kernel(m, block_column(ld, w, below), 0, 128, scratch).info == 128 + bad + 1);
  }
}

TEST_CASE("solve_under_diagonal solves the rows under a lower triangle and updates the next block's columns") {
  if (!kernels::dense_backend_status("cublas").available) return;
  std::mt19937 rng(77);
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  // One column, a tail block's width and a kernel's; rows around the 64-row slabs; no update, or
  // that of the next 64 columns, or of fewer (a tail).
  for (const int w : {1, 37, 64})
    for (const long long rows : {1LL, 63LL, 64LL, 65LL, 1000LL})
      for (const int solved : {0, 1, w / 2, w}) {
        if (solved > rows) continue;
        CAPTURE(w);
        CAPTURE(rows);
        CAPTURE(solved);
        const long long ld = 2 * w + 3;
        // L in rows [0, w), its upper part NaN (not to be read); B under it, then C; NaN past them.
        std::vector<double> m(static_cast<std::size_t>((w + rows) * ld), std::nan(""));
        const auto at = [&](long long r, long long c) -> double& { return m[static_cast<std::size_t>(r * ld + c)]; };
        for (long long r = 0; r < w; ++r)
          for (long long c = 0; c <= r; ++c) at(r, c) = r == c ? 2.0 + entry(rng) : 0.2 * entry(rng);
        for (long long r = w; r < w + rows; ++r)
          for (long long c = 0; c < w + solved; ++c)
            if (c < w || r - w >= solved || c - w <= r - w) at(r, c) = entry(rng);
        // x L^T = b, row by row, in long double; the first `solved` rows handed over solved.
        std::vector<long double> x(static_cast<std::size_t>(rows * w));
        const auto xs = [&](long long r, long long k) -> long double& {
          return x[static_cast<std::size_t>(r * w + k)];
        };
        for (long long r = 0; r < rows; ++r)
          for (long long j = 0; j < w; ++j) {
            long double v = at(w + r, j);
            for (long long k = 0; k < j; ++k) v -= xs(r, k) * at(j, k);
            xs(r, j) = v / at(j, j);
          }
        for (long long r = 0; r < solved; ++r)
          for (long long k = 0; k < w; ++k) at(w + r, k) = static_cast<double>(xs(r, k));
        std::vector<long double> expected(m.begin(), m.end());
        for (long long r = 0; r < rows; ++r) {
          for (long long k = 0; k < w; ++k) expected[static_cast<std::size_t>((w + r) * ld + k)] = xs(r, k);
          for (long long c = 0; c < solved && (r >= solved || c <= r); ++c)
            for (long long k = 0; k < w; ++k)
              expected[static_cast<std::size_t>((w + r) * ld + w + c)] -= xs(r, k) * static_cast<double>(xs(c, k));
        }
        kernels::cuda::DeviceBuffer<double> device(m);
        kernels::cuda::solve_under_diagonal(device.get(), device.get() + w * ld, rows, w, ld, solved, nullptr);
        std::vector<double> got(m.size());
        device.download(got.data());
        const NanMarkedComparison compared = compare_nan_marked(m, got, expected);
        CHECK(compared.changed == 0);
        CHECK(compared.relative_diff < 1e-12);
      }
}

#endif

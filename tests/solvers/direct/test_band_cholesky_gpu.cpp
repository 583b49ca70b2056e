// band-cholesky:cuda against band-cholesky:cpu (double and mixed precision) on random SPD band
// matrices, with the band on the device and streamed through a small device-memory budget; the
// CUDA factorisation against the CPU one on awkward sizes and block sizes; the failing pivot
// named on both paths. Skipped without a CUDA device.
#include <doctest/doctest.h>

#include <iostream>

#include "fem/config.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "solvers/direct/blas_backend.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"
#if FEM_WITH_CUDA
#include "solvers/direct/band_cholesky_cuda.hpp"
#endif

using namespace fem;
using band::index_t;
using band_tests::dense_to_csr;
using band_tests::max_rel_diff;
using band_tests::random_spd_band;

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

}  // namespace

TEST_CASE("band-cholesky:cuda agrees with the CPU solver") {
  SolverOptions options;
  options.device = "cuda";
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
    options.precision = "mixed";
    const auto mixed = make_band_cholesky_cuda(options)->solve(AssembledSystem{a, rhs}, u_mixed);
    options.precision = "double";
    CHECK(max_rel_diff(u_mixed, u_cpu) < 1e-9);
    CHECK(mixed.residual <= 1e-10);
  }
}

TEST_CASE("band-cholesky:cuda names the failing equation") {
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_band_cholesky_cuda({});
  } catch (const SolverUnavailable&) {
    return;
  }
  CsrMatrix a = grid_laplacian(5000, 70, 9);
  const index_t bad = 3001;
  for (auto k = a.row_ptr[bad]; k < a.row_ptr[bad + 1]; ++k)
    if (a.col[k] == bad) a.val[k] = -a.val[k];
  const std::vector<double> rhs(5000, 1.0);
  std::vector<double> u(5000);
  try {
    gpu->solve(AssembledSystem{a, rhs}, u);
    FAIL("no failure reported");
  } catch (const SolveFailure& e) {
    CHECK(e.equation() == bad);
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
    options.device = "cuda";
    const auto report = make_band_cholesky_cuda_within(options, budget)->solve(AssembledSystem{a, rhs}, u_gpu);
    CHECK(report.figures.at("device_chunks") > 5);
    CHECK(max_rel_diff(u_gpu, u_cpu) < 1e-10);
    CHECK(report.residual < 1e-12);
    options.precision = "mixed";
    const auto mixed = make_band_cholesky_cuda_within(options, budget)->solve(AssembledSystem{a, rhs}, u_mixed);
    CHECK(mixed.figures.at("device_chunks") > 5);
    CHECK(mixed.figures.at("factor_precision_bits") == 32);
    CHECK(max_rel_diff(u_mixed, u_cpu) < 1e-9);
    CHECK(mixed.residual <= 1e-10);
  }
}

TEST_CASE("band-cholesky:cuda names the failing equation when streaming") {
  if (!kernels::dense_backend_status("cublas").available) return;
  CsrMatrix a = grid_laplacian(5000, 70, 9);
  const index_t bad = 3001;
  for (auto k = a.row_ptr[bad]; k < a.row_ptr[bad + 1]; ++k)
    if (a.col[k] == bad) a.val[k] = -a.val[k];
  const std::vector<double> rhs(5000, 1.0);
  std::vector<double> u(5000);
  try {
    make_band_cholesky_cuda_within({}, 5000 * 140 * sizeof(double) / 8)->solve(AssembledSystem{a, rhs}, u);
    FAIL("no failure reported");
  } catch (const SolveFailure& e) {
    CHECK(e.equation() == bad);
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
  band::BlasBackend cpu;
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
    band::cuda::factor_on_device(on_device);
    CHECK(max_rel_diff(lower_band(*gpu, on_device), expected) < 1e-12);

    // The smallest budget (one block column a chunk) and a few block columns a chunk.
    for (const std::size_t budget : {band::cuda::min_streaming_bytes(layout, sizeof(double)),
                                     band::cuda::min_streaming_bytes(layout, sizeof(double)) * 3}) {
      CAPTURE(budget);
      auto streamed = band::load_band<double>(cpu, csr, layout);
      double* rows = static_cast<double*>(streamed.storage.storage->handle()) + streamed.storage.offset;
      const int chunks = band::cuda::factor_streamed(layout, rows, budget);
      const index_t per_chunk = band::cuda::chunk_rows(layout, budget, sizeof(double));
      CHECK(chunks == (n + per_chunk - 1) / per_chunk);
      CHECK(max_rel_diff(lower_band(cpu, streamed), expected) < 1e-12);
    }
    CHECK_THROWS_AS(band::cuda::factor_streamed(layout, static_cast<double*>(nullptr),
                                                band::cuda::min_streaming_bytes(layout, sizeof(double)) - 1),
                    std::invalid_argument);
  }
}

TEST_CASE("the CUDA band factorisation names the first failing pivot, on the device and streamed") {
  if (!kernels::dense_backend_status("cublas").available) return;
  auto gpu = kernels::make_dense_backend("cublas");
  band::BlasBackend cpu;
  const index_t n = 900, kd = 60, bad = 517;  // 517 is inside a block column, not at its start
  auto a = random_spd_band(n, kd, 5);
  a[bad * n + bad] = -1.0;
  const CsrMatrix csr = dense_to_csr(a, n);
  const band::BandLayout layout = band::make_layout(csr, 32);
  auto on_device = band::load_band<double>(*gpu, csr, layout);
  try {
    band::cuda::factor_on_device(on_device);
    FAIL("no failure reported");
  } catch (const kernels::NotPositiveDefinite& e) {
    CHECK(e.column() == bad);
  }
  auto streamed = band::load_band<double>(cpu, csr, layout);
  try {
    band::cuda::factor_streamed(layout, static_cast<double*>(streamed.storage.storage->handle()),
                                band::cuda::min_streaming_bytes(layout, sizeof(double)) * 2);
    FAIL("no failure reported");
  } catch (const kernels::NotPositiveDefinite& e) {
    CHECK(e.column() == bad);
  }
}
#endif

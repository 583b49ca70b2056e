// OpenCL SpMV (tunable CSR, ELL, SELL) against the serial CSR product, and CG and BiCGSTAB on
// OpenCL against the same methods on the CPU. Runs on PoCL in CI; small matrices so the kernel builds dominate, not the products.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>

#include "kernels/shared/spmv_cpu.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/opencl/spmv_opencl.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "tests/solvers/iterative/scoped_cache_directory.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;
using namespace fem::kernels::opencl;

namespace {

std::vector<double> on_device(const ClSparseDevice& device, const CsrMatrix& a, const ClSpmvSetting& s,
                              const std::vector<double>& x) {
  const ClSpmv spmv(device, a, s, {1000.0});
  ClVector dx(device, x.size()), dy(device, x.size());
  dx.upload(x.data());
  std::vector<double> y(x.size(), 99.0);
  dy.upload(y.data());
  spmv.apply(dx, dy);
  dy.download(y.data());
  return y;
}

// CG with these options (on OpenCL), or nothing (and why, as a message) where OpenCL is missing.
std::unique_ptr<LinearSolver> opencl_cg(const SolverOptions& o) {
  try {
    return make_conjugate_gradient(o);
  } catch (const SolverUnavailable& e) {
    MESSAGE("skipped: " << e.what());
    return nullptr;
  }
}

}  // namespace

TEST_CASE("OpenCL SpMV in every format and several (WG, R) matches the serial CSR product") {
  std::optional<ClSparseDevice> device;
  try {
    device.emplace();
  } catch (const kernels::BackendUnavailable& e) {
    MESSAGE("skipped: " << e.what());
    return;
  }
  const auto fe = testing::elasticity_box(3, 2, 2);
  const CsrMatrix irregular = testing::random_irregular(301, 40, 9);
  for (const CsrMatrix* a : {&fe.matrix, &irregular}) {
    const auto x = testing::random_vector(a->rows, 4);
    std::vector<double> y(x.size());
    kernels::spmv_serial(*a, x, y);
    for (const char* text : {"csr/wg64/r64", "csr/wg64/r8", "csr/wg128/r2", "csr/wg256/r4", "csr/wg32/r1", "ell/wg64",
                             "sell/wg128"}) {
      CAPTURE(text);
      CHECK(testing::relative_difference(on_device(*device, *a, parse_cl_spmv_setting(text), x), y) < 1e-13);
    }
  }
  CHECK_THROWS_AS(parse_cl_spmv_setting("csr/wg64/r128"), std::invalid_argument);
  CHECK_THROWS_AS(parse_cl_spmv_setting("dia"), std::invalid_argument);
  // Trilinear elasticity (81 per row): the paper found teams of 8-32 best near 72 per row.
  const ClSpmvSetting wide = model_cl_setting(kernels::row_statistics(testing::elasticity_box(6, 6, 6).matrix));
  CHECK(wide.group_size / wide.rows_per_group >= 8);
  // Short rows (at most 5): teams of one or two work-items.
  const ClSpmvSetting narrow = model_cl_setting(kernels::row_statistics(testing::heat_square(20, 20).matrix));
  CHECK(narrow.group_size / narrow.rows_per_group <= 2);
}

TEST_CASE("CG on OpenCL with spmv auto: the second solve takes the setting from the cache and gives the same answer") {
  const testing::ScopedCacheDirectory cache;
  SolverOptions o;
  o.tolerance = 1e-10;
  o.device = Device::OpenCl;
  const auto gpu = opencl_cg(o);
  if (!gpu) return;
  const auto fe = testing::elasticity_box(5, 3, 3);
  std::vector<double> first(fe.rhs.size(), 0.0), second(fe.rhs.size(), 0.0);
  const auto timed = gpu->solve(AssembledSystem{fe.matrix, fe.rhs}, first);
  CHECK(timed.figures.at("spmv_tuning_cached") == 0.0);
  // At most three timed; fewer when building the kernels (PoCL compiles each) spends the budget.
  CHECK(timed.figures.at("spmv_tuning_timed") >= 1.0);
  CHECK(timed.figures.at("spmv_tuning_timed") <= 3.0);
  CHECK(timed.figures.at("spmv_tuning_s") > 0.0);
  const auto cached = make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, second);
  CHECK(cached.figures.at("spmv_tuning_cached") == 1.0);
  CHECK(cached.figures.at("spmv_tuning_timed") == 0.0);
  CHECK(cached.iterations == timed.iterations);
  CHECK(testing::relative_difference(second, first) < 1e-14);
  // The model alone: no timing, no cache.
  o.spmv = SpmvChoice::parse(kernels::auto_spmv_setting("model"));
  std::fill(second.begin(), second.end(), 0.0);
  const auto model = make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, second);
  CHECK(model.figures.at("spmv_tuning_timed") == 0.0);
  CHECK(model.figures.at("spmv_tuning_cached") == 0.0);
  CHECK(testing::relative_difference(second, first) < 1e-8);
}

TEST_CASE("CG on OpenCL matches the CPU CG") {
  SolverOptions o;
  o.tolerance = 1e-11;
  o.spmv = SpmvChoice::parse("csr/wg64/r8");
  o.device = Device::OpenCl;
  const auto gpu = opencl_cg(o);
  if (!gpu) return;
  const auto fe = testing::elasticity_box(4, 2, 2);
  std::vector<double> u_cpu(fe.rhs.size(), 0.0), u_gpu(fe.rhs.size(), 0.0);
  SolverOptions on_cpu = o;
  on_cpu.device = Device::Cpu;
  const auto cpu_report = make_conjugate_gradient(on_cpu)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  const auto gpu_report = gpu->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
  CHECK(gpu_report.residual <= 1e-11);
  CHECK(std::abs(gpu_report.iterations - cpu_report.iterations) <= 2);
  o.spmv = SpmvChoice::parse("sell/wg64");
  o.preconditioner = Preconditioner::None;
  std::fill(u_gpu.begin(), u_gpu.end(), 0.0);
  make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
}

TEST_CASE("BiCGSTAB on OpenCL matches the CPU BiCGSTAB on a non-symmetric system") {
  SolverOptions o;
  o.tolerance = 1e-11;
  o.preconditioner = Preconditioner::Jacobi;
  o.spmv = SpmvChoice::parse("csr/wg64/r4");
  o.device = Device::OpenCl;
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_bicgstab(o);
  } catch (const SolverUnavailable& e) {
    MESSAGE("skipped: " << e.what());
    return;
  }
  const auto fe = testing::nonsymmetric_heat_square(9, 7);
  std::vector<double> u_cpu(fe.rhs.size(), 0.0), u_gpu(fe.rhs.size(), 0.0);
  SolverOptions on_cpu = o;
  on_cpu.device = Device::Cpu;
  const auto cpu_report = make_bicgstab(on_cpu)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  const auto gpu_report = gpu->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
  CHECK(std::abs(gpu_report.iterations - cpu_report.iterations) <= 2);
  o.preconditioner = Preconditioner::BlockJacobi;  // blocks of 3 are not among OpenCL's block-diagonal kernels
  CHECK_THROWS_AS(make_conjugate_gradient(o), SolverUnavailable);
}

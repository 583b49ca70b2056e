// OpenCL SpMV (tunable CSR, ELL, SELL) against the serial CSR product, and CG and BiCGSTAB on
// OpenCL against the same methods on the CPU. Runs on PoCL in CI; small matrices so the kernel builds dominate, not the products.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>

#include "kernels/cpu/spmv_cpu.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/opencl/spmv_opencl.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
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
  kernels::RowStats stats;
  stats.mean = 81;  // trilinear elasticity: the paper found teams of 8-32 best near 72 per row
  const ClSpmvSetting wide = model_cl_setting(stats);
  CHECK(wide.group_size / wide.rows_per_group == 16);
  stats.mean = 5;   // short rows: one work-item per row
  const ClSpmvSetting narrow = model_cl_setting(stats);
  CHECK(narrow.group_size == narrow.rows_per_group);
}

TEST_CASE("CG on OpenCL matches the CPU CG") {
  SolverOptions o;
  o.tolerance = 1e-11;
  o.spmv = "csr/wg64/r8";
  o.device = "opencl";
  std::unique_ptr<LinearSolver> gpu;
  try {
    gpu = make_conjugate_gradient(o);
  } catch (const SolverUnavailable& e) {
    MESSAGE("skipped: " << e.what());
    return;
  }
  const auto fe = testing::elasticity_box(4, 2, 2);
  std::vector<double> u_cpu(fe.rhs.size(), 0.0), u_gpu(fe.rhs.size(), 0.0);
  SolverOptions on_cpu = o;
  on_cpu.device = "cpu";
  const auto cpu_report = make_conjugate_gradient(on_cpu)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  const auto gpu_report = gpu->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
  CHECK(gpu_report.residual <= 1e-11);
  CHECK(std::abs(gpu_report.iterations - cpu_report.iterations) <= 2);
  o.spmv = "sell/wg64";
  o.preconditioner = "none";
  std::fill(u_gpu.begin(), u_gpu.end(), 0.0);
  make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
}

TEST_CASE("BiCGSTAB on OpenCL matches the CPU BiCGSTAB on a non-symmetric system") {
  SolverOptions o;
  o.tolerance = 1e-11;
  o.preconditioner = "jacobi";
  o.spmv = "csr/wg64/r4";
  o.device = "opencl";
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
  on_cpu.device = "cpu";
  const auto cpu_report = make_bicgstab(on_cpu)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  const auto gpu_report = gpu->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
  CHECK(std::abs(gpu_report.iterations - cpu_report.iterations) <= 2);
  o.preconditioner = "block-jacobi";  // blocks of 3 are not among OpenCL's block-diagonal kernels
  CHECK_THROWS_AS(make_conjugate_gradient(o), SolverUnavailable);
}

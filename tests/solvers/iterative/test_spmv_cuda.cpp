// CUDA SpMV in every format and launch setting against the serial CSR product, the tuner, and
// CG on CUDA against the CPU CG. Skips without a CUDA device (CI has none).
#include <doctest/doctest.h>

#include "fem/config.hpp"
#include "kernels/cpu/spmv_cpu.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/iterative/cuda_conjugate_gradient.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/spmv_tuning.hpp"
#endif

using namespace fem;

#if FEM_WITH_CUDA
namespace gpu = fem::kernels::cuda;

namespace {

bool skip() {
  const std::string why = gpu::unavailable_reason();
  if (!why.empty()) MESSAGE("skipped: " << why);
  return !why.empty();
}

std::vector<double> on_device(const CsrMatrix& a, const gpu::SpmvSetting& s, const std::vector<double>& x) {
  const gpu::DeviceSpmv spmv(a, s, {1000.0});
  gpu::DeviceVector dx(x.size()), dy(x.size());
  dx.upload(x.data());
  std::vector<double> y(x.size(), 99.0);
  dy.upload(y.data());
  spmv.apply(dx.data(), dy.data());
  dy.download(y.data());
  return y;
}

}  // namespace

TEST_CASE("CUDA SpMV: every format and launch setting matches the serial CSR product") {
  if (skip()) return;
  const auto fe = testing::elasticity_box(5, 3, 3);
  const CsrMatrix irregular = testing::random_irregular(3001, 60, 11);
  const CsrMatrix irregular_blocks = testing::random_irregular(999, 30, 12);  // 999 = 333 3x3 block rows
  int checked = 0;
  for (const CsrMatrix* a : {&fe.matrix, &irregular, &irregular_blocks}) {
    const auto x = testing::random_vector(a->rows, 3);
    std::vector<double> y(x.size());
    kernels::spmv_serial(*a, x, y);
    for (const char* format : {"csr", "csr-vector", "ell", "sell", "bcsr", "dia", "hyb"})
      for (int t : {1, 2, 8, 32})
        for (const char* launch : {"/b256/r64", "/b128/r255/c0", "/b1024/r32/c100", "/b96/r64"}) {
          const std::string text = std::string(format) + "/t" + std::to_string(t) + launch;
          CAPTURE(text);
          const auto setting = gpu::parse_spmv_setting(text);
          if (setting.format == gpu::SpmvFormat::Bcsr && a->rows % 3 != 0) continue;
          if (setting.format == gpu::SpmvFormat::Dia && a != &fe.matrix) continue;  // DIA of random rows: huge
          CHECK(testing::relative_difference(on_device(*a, setting, x), y) < 1e-12);
          ++checked;
        }
  }
  CHECK(checked > 200);
}

TEST_CASE("CUDA SpMV refuses bad settings and blown-up padding") {
  if (skip()) return;
  const CsrMatrix irregular = testing::random_irregular(3001, 60, 11);
  CHECK_THROWS_WITH_AS(gpu::DeviceSpmv(irregular, gpu::parse_spmv_setting("ell")), doctest::Contains("ELL refused"),
                       kernels::FormatRefused);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("csr-vector/t3"), std::invalid_argument);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("bell"), std::invalid_argument);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("csr/b512/r255"), std::invalid_argument);
}

TEST_CASE("the tuner's best is no slower than the model's pick, and both are valid") {
  if (skip()) return;
  const auto fe = testing::elasticity_box(12, 8, 8);
  const auto report = gpu::tune_spmv(fe.matrix, 2.0);
  CHECK(report.best_seconds > 0);
  CHECK(report.best_seconds <= report.model_seconds);
  CHECK(report.model.format == gpu::SpmvFormat::Bcsr);  // elasticity: whole 3x3 blocks
  CHECK(report.tried.size() > 5);
}

TEST_CASE("CG on CUDA matches the CPU CG") {
  if (skip()) return;
  const auto fe = testing::elasticity_box(6, 3, 3);
  SolverOptions o;
  o.tolerance = 1e-11;
  std::vector<double> u_cpu(fe.rhs.size(), 0.0);
  const auto cpu_report = make_cpu_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  for (const char* spmv : {"auto", "bcsr/t4", "csr-vector/t16", "sell"})
    for (const char* pc : {"jacobi", "none"}) {
      CAPTURE(spmv);
      CAPTURE(pc);
      o.spmv = spmv;
      o.preconditioner = pc;
      std::vector<double> u(fe.rhs.size(), 0.0);
      const auto report = make_cuda_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u);
      CHECK(testing::relative_difference(u, u_cpu) < 1e-8);
      CHECK(report.residual <= 1e-11);
      if (std::string(pc) == "jacobi") CHECK(std::abs(report.iterations - cpu_report.iterations) <= 2);
    }
}
#endif

TEST_CASE("cg on cuda says why when it cannot run") {
#if FEM_WITH_CUDA
  if (!gpu::unavailable_reason().empty())
#endif
  {
    SolverOptions o;
    CHECK_THROWS_AS(make_cuda_conjugate_gradient(o), SolverUnavailable);
  }
  SolverOptions o;
  o.preconditioner = "ssor";
  CHECK_THROWS_AS(make_cuda_conjugate_gradient(o), SolverUnavailable);
}

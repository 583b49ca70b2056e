// CUDA SpMV in every format and launch setting against the serial CSR product, the tuner, and
// CG on CUDA against the CPU CG. Skips without a CUDA device (CI has none).
#include <doctest/doctest.h>

#include "fem/config.hpp"
#include "kernels/shared/spmv_cpu.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "tests/solvers/iterative/scoped_cache_directory.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/spmv_tuning.hpp"
#include "tests/solvers/iterative/skip_without_cuda.hpp"
#endif

using namespace fem;

#if FEM_WITH_CUDA
namespace gpu = fem::kernels::cuda;

namespace {

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
  if (test::skip_without_cuda()) return;
  const auto fe = testing::elasticity_box(5, 3, 3);
  const auto quadratic = testing::elasticity_box(3, 2, 2, 2);  // hex27: block rows of uneven length
  const auto heat = testing::heat_square(40, 30);
  const CsrMatrix irregular = testing::random_irregular(3001, 60, 11);
  const CsrMatrix irregular_blocks = testing::random_irregular(999, 30, 12);  // 999 = 333 3x3 block rows
  int checked = 0;
  for (const CsrMatrix* a : {&fe.matrix, &quadratic.matrix, &heat.matrix, &irregular, &irregular_blocks}) {
    const bool random = a == &irregular || a == &irregular_blocks;
    const auto x = testing::random_vector(a->rows, 3);
    std::vector<double> y(x.size());
    kernels::spmv_serial(*a, x, y);
    for (const auto format : gpu::all_spmv_formats())
      for (int t : {1, 2, 8, 32})
        for (const char* launch : {"/b256/r64", "/b128/r255/c0", "/b1024/r32/c100", "/b96/r64"}) {
          const std::string text = gpu::format_name(format) + "/t" + std::to_string(t) + launch;
          CAPTURE(text);
          const auto setting = gpu::parse_spmv_setting(text);
          const bool blocked = format == gpu::SpmvFormat::Bcsr || format == gpu::SpmvFormat::Bell ||
                               format == gpu::SpmvFormat::Cds;
          if (blocked && a->rows % 3 != 0) {
            CHECK_THROWS_AS(gpu::DeviceSpmv(*a, setting), kernels::FormatRefused);
            continue;
          }
          // DIA and CDS of random rows store every diagonal: huge, and slow to build.
          if ((format == gpu::SpmvFormat::Dia || format == gpu::SpmvFormat::Cds) && random) continue;
          CHECK(testing::relative_difference(on_device(*a, setting, x), y) < 1e-12);
          ++checked;
        }
  }
  CHECK(checked > 500);
}

TEST_CASE("CUDA SpMV writes every row, rows of every length, and leaves x alone") {
  if (test::skip_without_cuda()) return;
  // Rows of length 0..300 in a random order, one dense row, empty rows: long rows cross many
  // team strides, empty rows must still be written (y starts at 99 in on_device).
  const CsrMatrix a = testing::random_irregular(2048 + 5, 300, 21);
  const auto x = testing::random_vector(a.rows, 8);
  std::vector<double> y(x.size());
  kernels::spmv_serial(a, x, y);
  for (const char* text : {"csr", "csr-vector/t32/b1024", "ell/b32", "sell/b64", "hyb/b512"}) {
    CAPTURE(text);
    CHECK(testing::relative_difference(on_device(a, gpu::parse_spmv_setting(text), x), y) < 1e-12);
  }
}

TEST_CASE("CUDA SpMV refuses bad settings and blown-up padding") {
  if (test::skip_without_cuda()) return;
  const CsrMatrix irregular = testing::random_irregular(3001, 60, 11);
  CHECK_THROWS_WITH_AS(gpu::DeviceSpmv(irregular, gpu::parse_spmv_setting("ell")), doctest::Contains("ELL refused"),
                       kernels::FormatRefused);
  CHECK_THROWS_WITH_AS(gpu::DeviceSpmv(irregular, gpu::parse_spmv_setting("dia")), doctest::Contains("DIA refused"),
                       kernels::FormatRefused);
  const CsrMatrix irregular_blocks = testing::random_irregular(999, 30, 12);
  CHECK_THROWS_WITH_AS(gpu::DeviceSpmv(irregular_blocks, gpu::parse_spmv_setting("cds")),
                       doctest::Contains("CDS refused"), kernels::FormatRefused);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("csr-vector/t3"), std::invalid_argument);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("coo"), std::invalid_argument);
  CHECK_THROWS_AS(gpu::parse_spmv_setting("csr/b512/r255"), std::invalid_argument);
}

TEST_CASE("the tuner times the model's first few, the cache skips that, and the matrix it hands back is right") {
  if (test::skip_without_cuda()) return;
  // Large enough to fill the device (9,075 rows): below that the model rightly prefers the kernels
  // with more threads per row over BCSR's fewer bytes.
  const auto fe = testing::elasticity_box(24, 10, 10);
  const testing::ScopedCacheDirectory cache;
  const auto timed = gpu::tune_spmv(fe.matrix, kernels::SpmvTuning::Cache);
  CHECK(timed.choice.source == "timed");
  CHECK(timed.choice.timed.size() == 3);
  // Elasticity renumbered by RCM: whole 3x3 blocks without diagonal structure.
  const auto model = gpu::model_setting(kernels::row_statistics(fe.matrix)).format;
  CHECK((model == gpu::SpmvFormat::Bcsr || model == gpu::SpmvFormat::Bell));
  const auto cached = gpu::tune_spmv(fe.matrix, kernels::SpmvTuning::Cache);
  CHECK(cached.choice.source == "cache");
  CHECK(cached.choice.timed.empty());
  CHECK(cached.choice.setting == timed.choice.setting);
  const auto x = testing::random_vector(fe.matrix.rows, 5);
  std::vector<double> y(x.size()), z(x.size(), 99.0);
  kernels::spmv_serial(fe.matrix, x, y);
  gpu::DeviceVector dx(x.size()), dz(x.size());
  dx.upload(x.data());
  dz.upload(z.data());
  cached.matrix->apply(dx.data(), dz.data());
  dz.download(z.data());
  CHECK(testing::relative_difference(z, y) < 1e-12);
  CHECK(gpu::to_string(cached.matrix->setting()) == cached.choice.setting);
}

TEST_CASE("CG on CUDA matches the CPU CG") {
  if (test::skip_without_cuda()) return;
  const auto fe = testing::elasticity_box(6, 3, 3);
  for (const char* pc : {"jacobi", "block-jacobi", "none"}) {
    SolverOptions o;
    o.tolerance = 1e-11;
    o.preconditioner = *parse_choice<Preconditioner>(pc);
    std::vector<double> u_cpu(fe.rhs.size(), 0.0);
    const auto cpu_report = make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
    o.device = Device::Cuda;
    for (const char* spmv : {"auto", "bcsr/t4", "bell", "csr-vector/t16", "sell", "hyb"}) {
      CAPTURE(spmv);
      CAPTURE(pc);
      o.spmv = SpmvChoice::parse(spmv);
      std::vector<double> u(fe.rhs.size(), 0.0);
      const auto report = make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u);
      CHECK(testing::relative_difference(u, u_cpu) < 1e-8);
      CHECK(report.residual <= 1e-11);
      CHECK(report.residual_history.size() == static_cast<std::size_t>(report.iterations) + 1);
      if (std::string(pc) != "none") CHECK(std::abs(report.iterations - cpu_report.iterations) <= 2);
    }
  }
}

TEST_CASE("BiCGSTAB on CUDA matches the CPU BiCGSTAB on a non-symmetric system") {
  if (test::skip_without_cuda()) return;
  const auto fe = testing::nonsymmetric_heat_square(9, 7);
  SolverOptions o;
  o.tolerance = 1e-11;
  o.preconditioner = Preconditioner::Jacobi;
  std::vector<double> u_cpu(fe.rhs.size(), 0.0), u_gpu(fe.rhs.size(), 0.0);
  const auto cpu_report = make_bicgstab(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_cpu);
  o.device = Device::Cuda;
  const auto gpu_report = make_bicgstab(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u_gpu);
  CHECK(testing::relative_difference(u_gpu, u_cpu) < 1e-8);
  CHECK(std::abs(gpu_report.iterations - cpu_report.iterations) <= 2);
}
#endif

TEST_CASE("cg on cuda says why when it cannot run") {
#if FEM_WITH_CUDA
  if (!gpu::unavailable_reason().empty())
#endif
  {
    SolverOptions o;
    o.device = Device::Cuda;
    CHECK_THROWS_AS(make_conjugate_gradient(o), SolverUnavailable);
  }
  SolverOptions o;
  o.device = Device::Cuda;
  o.preconditioner = Preconditioner::Ssor;
  CHECK_THROWS_AS(make_conjugate_gradient(o), SolverUnavailable);
}

#include "solvers/direct/band_elimination.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/direct/available_memory.hpp"
#include "support/host_memory.hpp"
#include "solvers/direct/band_of_csr.hpp"
#include "solvers/direct/iterative_refinement.hpp"
#include "solvers/progress_meter.hpp"
#include "support/stopwatch.hpp"

namespace fem {

namespace {

using band::index_t;

// Columns per block: the trailing update is a product of this depth.
constexpr index_t block_columns = 64;

enum class Method { gauss, ldlt };

// The host BLAS in either precision.
void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE op, CBLAS_DIAG diag, index_t m, index_t n, const double* a,
          index_t lda, double* b, index_t ldb) {
  cblas_dtrsm(CblasRowMajor, side, uplo, op, diag, m, n, 1.0, a, lda, b, ldb);
}
void trsm(CBLAS_SIDE side, CBLAS_UPLO uplo, CBLAS_TRANSPOSE op, CBLAS_DIAG diag, index_t m, index_t n, const float* a,
          index_t lda, float* b, index_t ldb) {
  cblas_strsm(CblasRowMajor, side, uplo, op, diag, m, n, 1.0f, a, lda, b, ldb);
}
void gemm_minus(index_t m, index_t n, index_t k, const double* a, const double* b, double* c, index_t ld) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0, a, ld, b, ld, 1.0, c, ld);
}
void gemm_minus(index_t m, index_t n, index_t k, const float* a, const float* b, float* c, index_t ld) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1.0f, a, ld, b, ld, 1.0f, c, ld);
}
void syrk_minus(index_t n, index_t k, const double* a, index_t lda, double* c, index_t ldc) {
  cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, k, -1.0, a, lda, 1.0, c, ldc);
}
void syrk_minus(index_t n, index_t k, const float* a, index_t lda, float* c, index_t ldc) {
  cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, k, -1.0f, a, lda, 1.0f, c, ldc);
}

// Row i holds A(i, j) for i - left <= j <= i + right. `left` is the half-bandwidth plus one
// block of zero padding (and `right` the same for Gauss, 0 for LDLᵀ), so that every block the
// factorisation touches is a plain row-major matrix with leading dimension ld() = left + right.
template <class T>
struct RowBand {
  index_t n = 0, kd = 0, nb = 1, left = 0, right = 0;
  std::vector<T> a;
  index_t ld() const { return left + right; }
  T* at(index_t i, index_t j) { return &a[static_cast<std::size_t>(i * (ld() + 1) + j - i + left)]; }
};

[[noreturn]] void pivot_failure(const char* method, index_t k) {
  throw SolveFailure(std::string(method) + ": the pivot of equation " + std::to_string(k) +
                         " is not positive: the matrix is not positive definite",
                     k);
}

// The diagonal block [k0, k1) in place, unblocked: L U (Gauss, unit L) or L D Lᵀ (LDLᵀ).
template <class T>
void factor_diagonal_block(RowBand<T>& m, index_t k0, index_t k1, Method method) {
  for (index_t k = k0; k < k1; ++k) {
    const T pivot = *m.at(k, k);
    if (!(pivot > 0)) pivot_failure(method == Method::gauss ? "band Gauss elimination" : "band LDLT", k);
    for (index_t i = k + 1; i < k1; ++i) {
      const T below = *m.at(i, k);
      const T f = below / pivot;
      if (method == Method::gauss) {
        for (index_t j = k + 1; j < k1; ++j) *m.at(i, j) -= f * *m.at(k, j);
      } else {
        for (index_t j = k + 1; j <= i; ++j) *m.at(i, j) -= f * *m.at(j, k);  // A(j, k) is still D L(j, k)
      }
    }
    for (index_t i = k + 1; i < k1; ++i) *m.at(i, k) /= pivot;
  }
}

// Right-looking by blocks of columns: the diagonal block, the panels beside it by triangular
// solves, and the trailing window by one product, each a BLAS call that threads itself.
template <class T>
void factor(RowBand<T>& m, Method method, ProgressMeter& progress) {
  const index_t ld = m.ld();
  std::vector<T> scaled;  // LDLᵀ: the panel L21 D^1/2, so that the update is A22 -= S Sᵀ
  for (index_t k0 = 0; k0 < m.n; k0 += m.nb) {
    const index_t k1 = std::min(m.n, k0 + m.nb), width = k1 - k0;
    const index_t below = std::min(m.n, k1 + m.kd) - k1;  // rows the block's columns reach
    factor_diagonal_block(m, k0, k1, method);
    if (below > 0 && method == Method::gauss) {
      trsm(CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, below, width, m.at(k0, k0), ld, m.at(k1, k0), ld);  // L21
      trsm(CblasLeft, CblasLower, CblasNoTrans, CblasUnit, width, below, m.at(k0, k0), ld, m.at(k0, k1), ld);      // U12
      gemm_minus(below, below, width, m.at(k1, k0), m.at(k0, k1), m.at(k1, k1), ld);
    } else if (below > 0) {
      trsm(CblasRight, CblasLower, CblasTrans, CblasUnit, below, width, m.at(k0, k0), ld, m.at(k1, k0), ld);  // L21 D
      scaled.resize(static_cast<std::size_t>(below * width));
      // Serial: an OpenMP team here would spin against the BLAS threads (below x width is small).
      for (index_t i = 0; i < below; ++i)
        for (index_t j = 0; j < width; ++j) {
          const T d = *m.at(k0 + j, k0 + j);
          T& l = *m.at(k1 + i, k0 + j);
          scaled[i * width + j] = l / std::sqrt(d);
          l /= d;
        }
      syrk_minus(below, width, scaled.data(), width, m.at(k1, k1), ld);
    }
    progress.steps("columns", k1, m.n);
  }
}

// x := A^-1 x with the factor (T) on a vector in double.
template <class T>
void substitute(RowBand<T>& m, Method method, std::span<double> x) {
  for (index_t i = 0; i < m.n; ++i)  // L y = b, L unit lower
    for (index_t k = std::max<index_t>(0, i - m.kd); k < i; ++k) x[i] -= *m.at(i, k) * x[k];
  if (method == Method::gauss) {
    for (index_t i = m.n - 1; i >= 0; --i) {
      double sum = x[i];
      for (index_t j = i + 1; j <= std::min(m.n - 1, i + m.kd); ++j) sum -= *m.at(i, j) * x[j];
      x[i] = sum / *m.at(i, i);
    }
    return;
  }
  for (index_t i = 0; i < m.n; ++i) x[i] /= *m.at(i, i);
  for (index_t i = m.n - 1; i >= 0; --i)  // Lᵀ x = z: x_i is final, move it out of the rows above
    for (index_t k = std::max<index_t>(0, i - m.kd); k < i; ++k) x[k] -= *m.at(i, k) * x[i];
}

class BandEliminationSolver final : public LinearSolver {
 public:
  BandEliminationSolver(Method method, const SolverOptions& options) : method_(method), options_(options) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    const CsrMatrix& a = system.matrix.csr_for(name());
    if (static_cast<index_t>(system.rhs.size()) != a.rows || static_cast<index_t>(solution.size()) != a.rows)
      throw std::invalid_argument(std::string(name()) + ": the matrix has " + std::to_string(a.rows) + " rows but the rhs " +
                                  std::to_string(system.rhs.size()) + " and the solution " + std::to_string(solution.size()) +
                                  " entries");
    SolveReport report;
    report.figures["refinement_steps"] = 0;
    report.figures["precision_fallback"] = 0;
    if (options_.precision == Precision::Mixed) {
      try {
        auto factor = factor_in<float>(a, report);
        const Stopwatch watch;
        const bool converged = refine(a, system.rhs, solution, [&](std::vector<double>& r) { substitute(factor, method_, r); },
                                      options_, report);
        report.time_solve_s += watch.seconds();
        if (converged) return report;
      } catch (const SolveFailure&) {
        // not positive definite in FP32: FP64 decides
      }
      report.figures["precision_fallback"] = 1;
      if (options_.progress) options_.progress("mixed precision did not converge: factoring in FP64");
    }
    auto factor = factor_in<double>(a, report);
    const Stopwatch watch;
    std::copy(system.rhs.begin(), system.rhs.end(), solution.begin());
    substitute(factor, method_, solution);
    report.time_solve_s += watch.seconds();
    std::vector<double> r;
    report.residual = relative_residual(a, system.rhs, solution, r);
    report.residual_history.push_back(report.residual);
    return report;
  }

 private:
  const char* name() const { return method_ == Method::gauss ? "band-gauss" : "band-ldlt"; }

  // The band of `a` in T, factored; sizes and the setup time go to the report.
  template <class T>
  RowBand<T> factor_in(const CsrMatrix& a, SolveReport& report) {
    const Stopwatch watch;
    RowBand<T> m;
    m.n = a.rows;
    m.kd = band::bandwidth_of(a);
    m.nb = std::clamp<index_t>(m.kd, 1, block_columns);
    m.left = m.kd + m.nb;
    m.right = method_ == Method::gauss ? m.left : 0;
    const std::size_t bytes = static_cast<std::size_t>(m.n) * static_cast<std::size_t>(m.ld() + 1) * sizeof(T);
    band::require_memory(bytes, host_available_memory(),
                         std::string(name()) + " storage of " + std::to_string(m.n) + " equations, half-bandwidth " +
                             std::to_string(m.kd),
                         "the host");
    m.a.assign(bytes / sizeof(T), T(0));
    for (index_t i = 0; i < m.n; ++i)
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (a.col[k] <= i + (method_ == Method::gauss ? m.kd : 0)) *m.at(i, a.col[k]) = static_cast<T>(a.val[k]);
    ProgressMeter progress(options_);
    factor(m, method_, progress);
    report.time_setup_s += watch.seconds();
    const double kd = static_cast<double>(m.kd), n = static_cast<double>(m.n);
    report.memory_bytes = std::max(report.memory_bytes, bytes);
    report.figures["bandwidth"] = kd;
    report.figures["block_size"] = static_cast<double>(m.nb);
    report.figures["factor_bytes"] = static_cast<double>(bytes);
    report.figures["factor_precision_bits"] = sizeof(T) * 8;
    // Gauss updates the kd x kd square of each step, LDLᵀ its lower triangle (no square roots).
    report.figures["flops"] = method_ == Method::gauss ? 2 * n * kd * kd : n * kd * (kd + 1);
    report.figures["threads"] = omp_get_max_threads();
    return m;
  }

  Method method_;
  SolverOptions options_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_band_gauss_cpu(const SolverOptions& options) {
  return std::make_unique<BandEliminationSolver>(Method::gauss, options);
}
std::unique_ptr<LinearSolver> make_band_ldlt_cpu(const SolverOptions& options) {
  return std::make_unique<BandEliminationSolver>(Method::ldlt, options);
}

}  // namespace fem

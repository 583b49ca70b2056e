#include "solvers/direct/band_elimination.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "solvers/direct/available_memory.hpp"
#include "solvers/direct/band_layout.hpp"

namespace fem {

namespace {

using band::index_t;
using Clock = std::chrono::steady_clock;

// Steps whose update touches fewer rows than this run on one thread: the fork/join costs more.
constexpr index_t parallel_rows = 48;

enum class Method { gauss, ldlt };

// Row i holds A(i, j) for i - kd <= j <= i + right (right = kd for Gauss, 0 for LDLᵀ).
struct RowBand {
  index_t n = 0, kd = 0, right = 0;
  std::vector<double> a;
  index_t pitch() const { return kd + 1 + right; }
  double& at(index_t i, index_t j) { return a[static_cast<std::size_t>(i * pitch() + j - i + kd)]; }
};

[[noreturn]] void pivot_failure(const char* method, index_t k) {
  throw SolveFailure(std::string(method) + ": the pivot of equation " + std::to_string(k) +
                         " is not positive: the matrix is not positive definite",
                     k);
}

// A = L U with unit L; the multipliers overwrite the lower band.
void gauss_factor(RowBand& m) {
  for (index_t k = 0; k < m.n; ++k) {
    const double pivot = m.at(k, k);
    if (!(pivot > 0)) pivot_failure("band Gauss elimination", k);
    const index_t last = std::min(m.n - 1, k + m.kd);
    const double* pivot_row = &m.at(k, k);
#pragma omp parallel for schedule(static) if (last - k >= parallel_rows)
    for (index_t i = k + 1; i <= last; ++i) {
      double* row = &m.at(i, k);
      const double f = row[0] / pivot;
      row[0] = f;
      for (index_t j = 1; j <= last - k; ++j) row[j] -= f * pivot_row[j];
    }
  }
}

void gauss_solve(RowBand& m, std::span<double> x) {
  for (index_t i = 0; i < m.n; ++i)
    for (index_t k = std::max<index_t>(0, i - m.kd); k < i; ++k) x[i] -= m.at(i, k) * x[k];
  for (index_t i = m.n - 1; i >= 0; --i) {
    double sum = x[i];
    for (index_t j = i + 1; j <= std::min(m.n - 1, i + m.kd); ++j) sum -= m.at(i, j) * x[j];
    x[i] = sum / m.at(i, i);
  }
}

// A = L D Lᵀ with unit L below the diagonal and D on it.
void ldlt_factor(RowBand& m) {
  std::vector<double> column(static_cast<std::size_t>(m.kd + 1));  // D L(:, k) of this step
  for (index_t k = 0; k < m.n; ++k) {
    const double d = m.at(k, k);
    if (!(d > 0)) pivot_failure("band LDLT", k);
    const index_t last = std::min(m.n - 1, k + m.kd);
    for (index_t i = k + 1; i <= last; ++i) column[i - k] = m.at(i, k);
#pragma omp parallel for schedule(dynamic, 8) if (last - k >= parallel_rows)
    for (index_t i = k + 1; i <= last; ++i) {
      const double l = column[i - k] / d;
      double* row = &m.at(i, k);
      row[0] = l;
      for (index_t j = 1; j <= i - k; ++j) row[j] -= l * column[j];
    }
  }
}

void ldlt_solve(RowBand& m, std::span<double> x) {
  for (index_t i = 0; i < m.n; ++i)
    for (index_t k = std::max<index_t>(0, i - m.kd); k < i; ++k) x[i] -= m.at(i, k) * x[k];
  for (index_t i = 0; i < m.n; ++i) x[i] /= m.at(i, i);
  for (index_t i = m.n - 1; i >= 0; --i)  // Lᵀ x = z: x_i is final, move it out of the rows above
    for (index_t k = std::max<index_t>(0, i - m.kd); k < i; ++k) x[k] -= m.at(i, k) * x[i];
}

class BandEliminationSolver final : public LinearSolver {
 public:
  explicit BandEliminationSolver(Method method) : method_(method) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    const CsrMatrix& a = system.matrix;
    const char* name = method_ == Method::gauss ? "band-gauss" : "band-ldlt";
    if (static_cast<index_t>(system.rhs.size()) != a.rows || static_cast<index_t>(solution.size()) != a.rows)
      throw std::invalid_argument(std::string(name) + ": the matrix has " + std::to_string(a.rows) +
                                  " rows but the rhs " + std::to_string(system.rhs.size()) + " and the solution " +
                                  std::to_string(solution.size()) + " entries");
    SolveReport report;
    const auto start = Clock::now();
    RowBand m;
    m.n = a.rows;
    m.kd = band::bandwidth_of(a);
    m.right = method_ == Method::gauss ? m.kd : 0;
    const std::size_t bytes = static_cast<std::size_t>(m.n * m.pitch()) * sizeof(double);
    band::require_memory(bytes, band::host_available_memory(),
                         std::string(name) + " storage of " + std::to_string(m.n) + " equations, half-bandwidth " +
                             std::to_string(m.kd),
                         "the host");
    m.a.assign(bytes / sizeof(double), 0.0);
    for (index_t i = 0; i < m.n; ++i)
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (a.col[k] <= i + m.right) m.at(i, a.col[k]) = a.val[k];
    if (method_ == Method::gauss) gauss_factor(m);
    else ldlt_factor(m);
    report.time_setup_s = std::chrono::duration<double>(Clock::now() - start).count();

    const auto solve_start = Clock::now();
    std::copy(system.rhs.begin(), system.rhs.end(), solution.begin());
    if (method_ == Method::gauss) gauss_solve(m, solution);
    else ldlt_solve(m, solution);
    report.time_solve_s = std::chrono::duration<double>(Clock::now() - solve_start).count();

    double rr = 0, bb = 0;
    for (index_t i = 0; i < a.rows; ++i) {
      double r = system.rhs[i];
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) r -= a.val[k] * solution[a.col[k]];
      rr += r * r;
      bb += system.rhs[i] * system.rhs[i];
    }
    report.residual = bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
    report.residual_history = {report.residual};
    report.memory_bytes = bytes;
    const double kd = static_cast<double>(m.kd), n = static_cast<double>(m.n);
    report.figures["bandwidth"] = kd;
    report.figures["factor_bytes"] = static_cast<double>(bytes);
    // Gauss updates the kd x kd square of each step, LDLᵀ its lower triangle (no square roots).
    report.figures["flops"] = method_ == Method::gauss ? 2 * n * kd * kd : n * kd * (kd + 1);
    report.figures["threads"] = omp_get_max_threads();
    return report;
  }

 private:
  Method method_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_band_gauss_cpu(const SolverOptions&) {
  return std::make_unique<BandEliminationSolver>(Method::gauss);
}
std::unique_ptr<LinearSolver> make_band_ldlt_cpu(const SolverOptions&) {
  return std::make_unique<BandEliminationSolver>(Method::ldlt);
}

}  // namespace fem

#include "kernels/shared/vector_ops.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/shared/spmv_cpu.hpp"

namespace fem::cpu {

void spmv(const CsrMatrix& a, std::span<const double> x, std::span<double> y) { kernels::spmv_openmp(a, x, y); }

void spmv_columns(const CsrMatrix& a, std::span<const double> x, std::span<double> y) {
  const std::int64_t n = a.rows;
  if (n == 0 || x.size() != y.size() || x.size() % static_cast<std::size_t>(n) != 0)
    throw std::invalid_argument("spmv_columns: blocks of " + std::to_string(x.size()) + " and " +
                                std::to_string(y.size()) + " values for a matrix of " + std::to_string(n) + " rows");
  const auto columns = static_cast<int>(x.size() / static_cast<std::size_t>(n));
  constexpr int kChunk = 8;
  const auto* rp = a.row_ptr.data();
  const auto* ci = a.col.data();
  const auto* v = a.val.data();
  for (int first = 0; first < columns; first += kChunk) {
    const int count = std::min(kChunk, columns - first);
    const double* xs = x.data() + static_cast<std::size_t>(first) * n;
    double* ys = y.data() + static_cast<std::size_t>(first) * n;
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
    for (std::int64_t i = 0; i < n; ++i) {
      double sum[kChunk] = {};
      for (auto k = rp[i]; k < rp[i + 1]; ++k) {
        const double value = v[k];
        const auto column = ci[k];
        for (int j = 0; j < count; ++j) sum[j] += value * xs[j * n + column];
      }
      for (int j = 0; j < count; ++j) ys[j * n + i] = sum[j];
    }
  }
}

double dot(std::span<const double> x, std::span<const double> y) {
  double sum = 0;
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for reduction(+ : sum) schedule(static) if (n > kParallelFrom)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

void axpy(double alpha, std::span<const double> x, std::span<double> y) {
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
  for (std::int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

void axpby(double a, std::span<const double> x, double b, std::span<double> y) {
  const auto n = static_cast<std::int64_t>(x.size());
  if (b == 0) {
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
    for (std::int64_t i = 0; i < n; ++i) y[i] = a * x[i];
    return;
  }
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
  for (std::int64_t i = 0; i < n; ++i) y[i] = a * x[i] + b * y[i];
}

}  // namespace fem::cpu

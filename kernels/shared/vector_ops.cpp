#include "kernels/shared/vector_ops.hpp"

#include <cstdint>

#include "kernels/shared/spmv_cpu.hpp"

namespace fem::cpu {

void spmv(const CsrMatrix& a, std::span<const double> x, std::span<double> y) { kernels::spmv_openmp(a, x, y); }

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

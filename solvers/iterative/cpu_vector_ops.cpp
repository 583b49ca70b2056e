#include "solvers/iterative/cpu_vector_ops.hpp"

#include <cstdint>

#include "kernels/cpu/spmv_cpu.hpp"

namespace fem::cpu {

// Below this many entries a parallel region costs more than it saves (and a busy machine makes
// waiting threads far worse).
constexpr std::int64_t kParallelFrom = 50000;

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

void xpby(std::span<const double> x, double beta, std::span<double> y) {
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
  for (std::int64_t i = 0; i < n; ++i) y[i] = x[i] + beta * y[i];
}

}  // namespace fem::cpu

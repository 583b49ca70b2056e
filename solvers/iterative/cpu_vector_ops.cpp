#include "solvers/iterative/cpu_vector_ops.hpp"

#include <cstdint>

namespace fem::cpu {

void spmv(const CsrMatrix& a, std::span<const double> x, std::span<double> y) {
  const auto* rp = a.row_ptr.data();
  const auto* ci = a.col.data();
  const auto* v = a.val.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (std::int64_t k = rp[i]; k < rp[i + 1]; ++k) sum += v[k] * x[ci[k]];
    y[i] = sum;
  }
}

double dot(std::span<const double> x, std::span<const double> y) {
  double sum = 0;
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) sum += x[i] * y[i];
  return sum;
}

void axpy(double alpha, std::span<const double> x, std::span<double> y) {
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) y[i] += alpha * x[i];
}

}  // namespace fem::cpu

#include "solvers/direct/dense_flop_rate.hpp"

#include <algorithm>
#include <vector>

#include "kernels/shared/blas_calls.hpp"
#include "support/stopwatch.hpp"

namespace fem::band {

double dense_flops_per_second(int size) {
  const std::size_t entries = static_cast<std::size_t>(size) * size;
  // Values that are not zero or one, so no BLAS shortcut applies.
  std::vector<double> a(entries), b(entries), c(entries, 0.0);
  for (std::size_t i = 0; i < entries; ++i) {
    a[i] = 1.0 + static_cast<double>(i % 7) / 8;
    b[i] = 0.5 - static_cast<double>(i % 5) / 16;
  }
  const double flops = 2.0 * size * size * static_cast<double>(size);
  // The best of several products: the first wakes the BLAS threads, and a busy machine lends
  // its cores unevenly. At least 4 products and 20 ms, at most 40 products.
  double best = 0;
  const Stopwatch all;
  for (int repeat = 0; repeat < 40 && (repeat < 4 || all.seconds() < 0.02); ++repeat) {
    const Stopwatch product;
    kernels::blas::gemm(CblasNoTrans, CblasNoTrans, size, size, size, 1.0, a.data(), size, b.data(), size, 0.0, c.data(), size);
    best = std::max(best, flops / std::max(product.seconds(), 1e-9));
  }
  return best;
}

}  // namespace fem::band

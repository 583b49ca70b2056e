#pragma once
// Random SPD band matrices for the band solver tests: off-diagonal entries uniform in [-1, 1]
// inside the band (the outermost diagonal always nonzero, so the bandwidth is exactly kd) and a
// diagonal that dominates each row by a random margin.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "tests/support/vectors.hpp"

namespace fem::band_tests {

// Row-major dense n x n.
inline std::vector<double> random_spd_band(std::int64_t n, std::int64_t kd, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> off(-1.0, 1.0), margin(0.1, 2.0);
  std::vector<double> a(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = std::max<std::int64_t>(0, i - kd); j < i; ++j) {
      double v = off(rng);
      if (i - j == kd) v = v >= 0 ? v + 0.5 : v - 0.5;
      a[i * n + j] = a[j * n + i] = v;
    }
  for (std::int64_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::int64_t j = 0; j < n; ++j) sum += j == i ? 0 : std::abs(a[i * n + j]);
    a[i * n + i] = sum + margin(rng);
  }
  return a;
}

inline CsrMatrix dense_to_csr(const std::vector<double>& a, std::int64_t n) {
  CsrMatrix m;
  m.rows = n;
  m.row_ptr.assign(1, 0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j)
      if (a[i * n + j] != 0 || i == j) {
        m.col.push_back(static_cast<std::int32_t>(j));
        m.val.push_back(a[i * n + j]);
      }
    m.row_ptr.push_back(static_cast<std::int64_t>(m.col.size()));
  }
  return m;
}

using testing::max_rel_diff;

}  // namespace fem::band_tests

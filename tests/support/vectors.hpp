#pragma once
// What the solver and kernel tests share about vectors: fresh random ones (right-hand sides,
// matrix values) and the largest difference between two solutions.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace fem::testing {

// `count` values uniform in [-1, 1], the same for the same seed.
inline std::vector<double> random_vector(std::size_t count, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(count);
  for (auto& x : v) x = value(gen);
  return v;
}

// Largest |x - y| relative to the largest |y| (the difference itself when y is zero).
inline double max_rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff = std::max(diff, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

}  // namespace fem::testing

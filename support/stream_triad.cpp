#include "support/stream_triad.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "support/stopwatch.hpp"

namespace fem {

double stream_triad_bytes_per_second(std::size_t doubles, int repeats) {
  const auto n = static_cast<std::ptrdiff_t>(doubles);
  const std::unique_ptr<double[]> a(new double[doubles]), b(new double[doubles]), c(new double[doubles]);
  // First touch by the threads that use each part, as the triad's static schedule will.
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) a[i] = 0, b[i] = 1, c[i] = 2;
  const double s = 3;
  double best = 0;
  for (int r = 0; r < repeats; ++r) {
    const Stopwatch triad;
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    const double seconds = triad.seconds();
    if (a[n / 2] != 7) throw std::logic_error("stream triad: wrong sum");  // and the loop is kept
    best = std::max(best, 24.0 * static_cast<double>(doubles) / seconds);
  }
  return best;
}

}  // namespace fem

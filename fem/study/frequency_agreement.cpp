#include "fem/study/frequency_agreement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fem::study {

double frequency_difference(const std::vector<double>& eigenvalues, const std::vector<double>& reference) {
  const std::size_t count = std::min<std::size_t>(kComparedModes, reference.size());
  if (eigenvalues.size() < count) return std::numeric_limits<double>::infinity();
  double largest = 0;
  for (std::size_t i = 0; i < count; ++i) largest = std::max(largest, std::abs(reference[i]));
  double worst = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double lambda = eigenvalues[i], rho = reference[i];
    const double difference = rho > 1e-8 * largest
                                  ? std::abs(std::sqrt(std::max(lambda, 0.0)) - std::sqrt(rho)) / std::sqrt(rho)
                                  : (largest > 0 ? std::abs(lambda - rho) / largest : std::abs(lambda - rho));
    worst = std::max(worst, difference);
  }
  return worst;
}

}  // namespace fem::study

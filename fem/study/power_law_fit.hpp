#pragma once
// The few statistics a study reports: the spread of repeated timings (support/statistics.hpp),
// and the exponent of a power law y = c * x^p fitted on log-log axes.
#include <vector>

#include "support/statistics.hpp"

namespace fem::study {

struct PowerFit {
  double exponent = 0;      // p
  double coefficient = 0;   // c
  double r_squared = 0;     // of the straight line in log-log
  int points = 0;
};

// Least squares of log y against log x over the pairs with x > 0 and y > 0; points < 2 when
// there are too few for a line.
PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace fem::study

#pragma once
// The few statistics a study reports: the spread of repeated timings, and the exponent of a
// power law y = c * x^p fitted on log-log axes.
#include <vector>

namespace fem::study {

struct Spread {
  double median = 0, min = 0, max = 0;
};

// Of a non-empty list (the median of an even count is the mean of the middle two).
Spread spread_of(std::vector<double> values);

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

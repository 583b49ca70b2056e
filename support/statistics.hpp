#pragma once
// The spread of repeated timings, as studies and benchmarks report it.
#include <vector>

namespace fem {

struct Spread {
  double median = 0, min = 0, max = 0;
};

// Of a non-empty list (the median of an even count is the mean of the middle two); throws
// std::invalid_argument on an empty one.
Spread spread_of(std::vector<double> values);

}  // namespace fem

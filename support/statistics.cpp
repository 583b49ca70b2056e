#include "support/statistics.hpp"

#include <algorithm>
#include <stdexcept>

namespace fem {

Spread spread_of(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("spread_of: no values");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v.front(), v.back()};
}

}  // namespace fem

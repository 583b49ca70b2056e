#include "fem/case/time_table.hpp"

#include <algorithm>
#include <iterator>

namespace fem {

double TimeTable::value_at(double t) const {
  if (t <= times.front()) return values.front();
  if (t >= times.back()) return values.back();
  const auto next = static_cast<std::size_t>(std::distance(times.begin(), std::upper_bound(times.begin(), times.end(), t)));
  const double t0 = times[next - 1], t1 = times[next];
  const double s = (t - t0) / (t1 - t0);
  return (1 - s) * values[next - 1] + s * values[next];
}

}  // namespace fem

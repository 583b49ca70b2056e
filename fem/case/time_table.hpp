#pragma once
// A value that follows time in a transient analysis: a table of (t, value) pairs, interpolated
// linearly between its times and held at its first value before them and at its last after them.
#include <string>
#include <vector>

namespace fem {

struct TimeTable {
  std::vector<double> times;   // strictly increasing, at least one
  std::vector<double> values;  // one per time
  std::string key;             // what it gives, as the case file names it: temperature, flux, T_inf, source
  std::string group;           // the boundary group whose value it is; empty for loads.source
  int line = 0;                // where it was written, for messages

  double value_at(double t) const;
  // "group 'base' temperature", "loads.source": what it drives, for messages and logs.
  std::string name() const { return group.empty() ? "loads." + key : "group '" + group + "' " + key; }
};

}  // namespace fem

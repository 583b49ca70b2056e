#pragma once
// Reading a heat value of the case file that may follow time: a number, or a table of (t, value)
// pairs such as [[0, 20], [600, 300]] (a transient analysis alone reads a table: check_analysis).
#include <optional>

#include "fem/case/time_table.hpp"
#include "fem/case/yaml_section.hpp"

namespace fem {

// s[key] as a number, or as a table (times finite and strictly increasing, values finite, at
// least one pair) stored in `table` under `name`; returns the number, or the table's value at t = 0.
double read_time_value(const Section& s, const char* key, const char* name, std::optional<TimeTable>& table);

}  // namespace fem

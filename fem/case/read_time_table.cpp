#include "fem/case/read_time_table.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace fem {
namespace {

std::string text_of(double x) {
  std::ostringstream text;
  text << x;
  return text.str();
}

TimeTable read_table(const Section& s, const YAML::Node& list, const char* key) {
  const std::string form = "'" + std::string(key) +
                           "' must be a number or a table of (t, value) pairs, times increasing: [[0, 20], [600, 300]]";
  if (list.size() == 0) s.fail(list, form + "; this table is empty");
  TimeTable table;
  for (const auto& pair : list) {
    if (!pair.IsSequence() || pair.size() != 2 || !pair[0].IsScalar() || !pair[1].IsScalar()) s.fail(pair, form);
    double t = 0, v = 0;
    try {
      t = pair[0].as<double>();
      v = pair[1].as<double>();
    } catch (const YAML::Exception&) {
      s.fail(pair, form);
    }
    if (!std::isfinite(t) || !std::isfinite(v)) s.fail(pair, "'" + std::string(key) + "': a pair of its table holds a number that is not finite");
    if (!table.times.empty() && !(t > table.times.back()))
      s.fail(pair, "'" + std::string(key) + "': the times of its table must increase strictly (" + text_of(t) +
                       " follows " + text_of(table.times.back()) + ")");
    table.times.push_back(t);
    table.values.push_back(v);
  }
  table.line = list.Mark().is_null() ? s.line() : list.Mark().line + 1;  // --set gives no mark: the entry stands in
  return table;
}

}  // namespace

double read_time_value(const Section& s, const char* key, const char* name, std::optional<TimeTable>& table) {
  const YAML::Node n = s.get(key);
  if (!n || !n.IsSequence()) return s.number(key);
  table = read_table(s, n, key);
  table->key = name;
  return table->value_at(0);
}

}  // namespace fem

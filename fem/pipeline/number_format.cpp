#include "fem/pipeline/number_format.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace fem {

std::string with_commas(long long v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > (v < 0 ? 1 : 0); i -= 3) s.insert(i, ",");
  return s;
}

std::string with_unit(double value, const std::string& unit, bool prefixed) {
  const char* prefix = "";
  if (prefixed)
    for (const auto& [scale, name] : {std::pair{1e9, "G"}, std::pair{1e6, "M"}, std::pair{1e3, "k"}})
      if (std::abs(value) >= scale) {
        value /= scale;
        prefix = name;
        break;
      }
  char text[48];
  std::snprintf(text, sizeof text, "%.4g %s%s", value, prefix, unit.c_str());
  return text;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return text;
}

}  // namespace fem

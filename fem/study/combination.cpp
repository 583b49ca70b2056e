#include "fem/study/combination.hpp"

#include <algorithm>
#include <stdexcept>

#include "solvers/solver_table.hpp"

namespace fem::study {

Combination parse_combination(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("'" + text + "': a solver is written method:device, e.g. band-cholesky:cpu");
  Combination c{text.substr(0, colon), text.substr(colon + 1)};
  if (const auto unknown = unknown_solver_name(c.method, c.device); !unknown.empty())
    throw std::invalid_argument("'" + text + "': " + unknown);
  return c;
}

std::vector<Combination> parse_combinations(const std::string& list) {
  std::vector<Combination> out;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const auto end = std::min(list.find(',', begin), list.size());
    const std::string item = list.substr(begin, end - begin);
    if (item.empty()) throw std::invalid_argument("an empty entry in the solver list '" + list + "'");
    Combination c = parse_combination(item);
    if (std::any_of(out.begin(), out.end(), [&](const Combination& o) { return o.name() == c.name(); }))
      throw std::invalid_argument("'" + item + "' is listed twice");
    out.push_back(std::move(c));
    begin = end + 1;
  }
  return out;
}

}  // namespace fem::study

#include "fem/study/combination.hpp"

#include <algorithm>
#include <stdexcept>

#include "solvers/solver_table.hpp"

namespace fem::study {

std::string Combination::name() const {
  return method + ":" + device + (preconditioner ? ":" + std::string(name_of(*preconditioner)) : "");
}

Combination parse_combination(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("'" + text + "': a solver is written method:device, e.g. band-cholesky:cpu, or "
                                "method:device:preconditioner for an iterative one, e.g. cg:cpu:amg");
  const auto second = text.find(':', colon + 1);
  Combination c{text.substr(0, colon), text.substr(colon + 1, second == std::string::npos ? std::string::npos : second - colon - 1),
                std::nullopt};
  if (const auto unknown = unknown_solver_name(c.method, c.device); !unknown.empty())
    throw std::invalid_argument("'" + text + "': " + unknown);
  if (second != std::string::npos) {
    const std::string preconditioner = text.substr(second + 1);
    if (!takes_preconditioner(c.method))
      throw std::invalid_argument("'" + text + "': " + c.method + " takes no preconditioner (cg and bicgstab do)");
    c.preconditioner = parse_choice<Preconditioner>(preconditioner);
    if (!c.preconditioner)
      throw std::invalid_argument("'" + text + "': unknown preconditioner '" + preconditioner + "' (" +
                                  choice_list<Preconditioner>() + ")");
  }
  return c;
}

Combination with_preconditioner(Combination c, Preconditioner fallback) {
  if (takes_preconditioner(c.method)) c.preconditioner = effective_preconditioner(c.preconditioner.value_or(fallback));
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

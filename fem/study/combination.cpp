#include "fem/study/combination.hpp"

#include <algorithm>
#include <stdexcept>

#include "solvers/eigen_table.hpp"
#include "solvers/solver_table.hpp"

namespace fem::study {

std::optional<SolverMethodId> Combination::factorising_method() const {
  if (eigen_method == EigenMethod::Lanczos) return method;
  return std::nullopt;
}

std::string Combination::name() const {
  const auto factorising = factorising_method();
  return std::string(eigen_method ? name_of(*eigen_method) : name_of(method)) + ":" + name_of(device) +
         (preconditioner ? ":" + std::string(name_of(*preconditioner)) : "") +
         (factorising ? ":" + std::string(name_of(*factorising)) : "");
}

namespace {

// "lanczos:cpu:multifrontal", "lobpcg:cpu" or "lobpcg:cpu:amg", "slepc:cpu".
Combination parse_eigen_row(const std::string& text, const EigenMethodRow& method, const std::string& device,
                            const std::optional<std::string>& third) {
  const auto on = parse_choice<Device>(device);
  if (!on) throw std::invalid_argument("'" + text + "': " + unknown_solver_name("cg", device));  // the table's unknown-device message
  Combination c;
  c.eigen_method = parse_eigen_method(method.name).value();  // the eigen table's names are EigenMethod's
  c.device = *on;
  c.method = c.eigen_method == EigenMethod::Slepc ? SolverMethodId::Mumps : SolverMethodId::Cg;
  switch (method.inner) {
    case EigenInner::LinearMethod:
      if (!third)
        throw std::invalid_argument("'" + text + "': shift-invert Lanczos names the linear method that factorises "
                                    "K - sigma M: " + method.name + ":" + device + ":multifrontal or :band-cholesky");
      if (const auto unknown = unknown_solver_name(*third, device); !unknown.empty())
        throw std::invalid_argument("'" + text + "': " + unknown);
      c.method = *parse_choice<SolverMethodId>(*third);
      break;
    case EigenInner::Amg:
      if (third && *third != "amg")
        throw std::invalid_argument("'" + text + "': " + method.name + " is preconditioned by amg only");
      c.preconditioner = Preconditioner::Amg;
      break;
    case EigenInner::None:
      if (third) throw std::invalid_argument("'" + text + "': " + method.name + " takes nothing after the device");
      break;
  }
  return c;
}

}  // namespace

Combination parse_combination(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos)
    throw std::invalid_argument("'" + text + "': a solver is written method:device, e.g. band-cholesky:cpu, or "
                                "method:device:preconditioner for an iterative one, e.g. cg:cpu:amg");
  const auto second = text.find(':', colon + 1);
  const std::string method = text.substr(0, colon);
  const std::string device = text.substr(colon + 1, second == std::string::npos ? std::string::npos : second - colon - 1);
  if (const EigenMethodRow* eigen = find_eigen_method(method))
    return parse_eigen_row(text, *eigen, device,
                           second == std::string::npos ? std::nullopt : std::optional<std::string>(text.substr(second + 1)));
  if (const auto unknown = unknown_solver_name(method, device); !unknown.empty())
    throw std::invalid_argument("'" + text + "': " + unknown);
  Combination c;
  c.method = *parse_choice<SolverMethodId>(method);
  c.device = *parse_choice<Device>(device);
  if (second != std::string::npos) {
    const std::string preconditioner = text.substr(second + 1);
    if (!takes_preconditioner(c.method))
      throw std::invalid_argument("'" + text + "': " + method + " takes no preconditioner (cg and bicgstab do)");
    c.preconditioner = parse_choice<Preconditioner>(preconditioner);
    if (!c.preconditioner)
      throw std::invalid_argument("'" + text + "': unknown preconditioner '" + preconditioner + "' (" +
                                  choice_list<Preconditioner>() + ")");
  }
  return c;
}

void require_rows_fit(const std::vector<Combination>& rows, bool modal, const std::string& what) {
  for (const auto& row : rows)
    if (row.eigen() != modal)
      throw std::invalid_argument(
          what + (modal ? " is a modal analysis: its rows are eigen methods (lanczos:cpu:multifrontal, lobpcg:cpu:amg, "
                          "slepc:cpu), not '" + row.name() + "'"
                        : " is not a modal analysis: '" + row.name() + "' is an eigen method (analysis: {type: modal})"));
}

Combination with_preconditioner(Combination c, Preconditioner fallback) {
  if (!c.eigen() && takes_preconditioner(c.method)) c.preconditioner = effective_preconditioner(c.preconditioner.value_or(fallback));
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

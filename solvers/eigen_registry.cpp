// The rows of the eigen solver table (solvers/eigen_table.hpp).
#include <algorithm>
#include <cstdio>

#include "fem/config.hpp"
#include "solvers/eigen_table.hpp"

namespace fem {
namespace {

constexpr BuildOption kEveryBuild{true, ""};
constexpr BuildOption kSlepc{FEM_WITH_SLEPC, "configure with -DFEM_WITH_SLEPC=ON; Debian: slepc-dev"};

std::string comma_separated(const std::vector<const char*>& names) {
  std::string list;
  for (const char* name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

}  // namespace

const std::vector<EigenMethodRow>& eigen_table() {
  static const std::vector<EigenMethodRow> table = {
      {"lanczos", EigenInner::LinearMethod,
       "shift-invert block Lanczos, thick restart, on K - sigma M prepared once by a direct method: lanczos:DEVICE:METHOD "
       "(lanczos:cpu:multifrontal, lanczos:cuda:band-cholesky)",
       {}, kEveryBuild},
      {"lobpcg", EigenInner::Amg, "LOBPCG preconditioned by one AMG V-cycle on K - sigma M: lobpcg:cpu:amg, lobpcg:cuda:amg",
       {"cpu", "cuda"},
       kEveryBuild},
      {"slepc", EigenInner::None, "SLEPc's Krylov-Schur with MUMPS shift-invert, the reference: slepc:cpu; runs under mpirun", {"cpu"}, kSlepc},
  };
  return table;
}

const EigenMethodRow* find_eigen_method(const std::string& name) {
  const auto& table = eigen_table();
  const auto it = std::find_if(table.begin(), table.end(), [&](const EigenMethodRow& m) { return name == m.name; });
  return it == table.end() ? nullptr : &*it;
}

std::vector<const char*> eigen_methods() {
  std::vector<const char*> names;
  for (const auto& method : eigen_table()) names.push_back(method.name);
  return names;
}

std::string eigen_unavailable_reason(const std::string& method, const std::string& device, const std::string& linear) {
  const EigenMethodRow* m = find_eigen_method(method);
  if (!m) return "unknown eigen method '" + method + "' (expected one of: " + comma_separated(eigen_methods()) + ")";
  if (m->inner == EigenInner::LinearMethod) {
    if (auto unknown = unknown_solver_name(linear, device); !unknown.empty()) return unknown;
    const SolverMethodId linear_method = *parse_choice<SolverMethodId>(linear);
    if (auto why = solver_unavailable_reason(linear_method, *parse_choice<Device>(device)); !why.empty()) return why;
    if (linear_method == SolverMethodId::Frontal)
      return method + " factorises K - sigma M, which frontal (element by element) cannot";
  } else if (std::none_of(m->devices.begin(), m->devices.end(), [&](const char* d) { return device == d; })) {
    return method + " is not available on " + device + " (" + method + " runs on: " + comma_separated(m->devices) + ")";
  }
  if (!m->needs.built) return method + " is not available in this build (" + m->needs.how + ")";
  return "";
}

std::string eigen_lines() {
  std::string text = "Eigen solvers (analysis.method; rows of fem compare and fem sweep on a modal case; * not in this build):\n";
  for (const auto& method : eigen_table()) {
    char line[400];
    std::snprintf(line, sizeof line, "  %-14s %s\n", (std::string(method.name) + (method.needs.built ? "" : "*")).c_str(),
                  method.help);
    text += line;
  }
  return text;
}

}  // namespace fem

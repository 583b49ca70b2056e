#include <algorithm>

#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {
namespace {

const std::map<std::string, SolverFactory>& registry() {
  // One line per method:device; each solver family adds its own.
  static const std::map<std::string, SolverFactory> solvers = {
      {"cg:cpu", make_cpu_conjugate_gradient},
  };
  return solvers;
}

}  // namespace

std::vector<std::string> available_solvers() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : registry()) names.push_back(name);
  return names;
}

std::unique_ptr<LinearSolver> make_solver(const SolverOptions& options) {
  const std::string key = options.method + ":" + options.device;
  const auto& solvers = registry();
  const auto it = solvers.find(key);
  if (it == solvers.end()) {
    std::string list;
    for (const auto& name : available_solvers()) list += (list.empty() ? "" : ", ") + name;
    throw SolverUnavailable("solver '" + options.method + "' on device '" + options.device +
                            "' is not available in this build (available: " + list + ")");
  }
  return it->second(options);
}

}  // namespace fem

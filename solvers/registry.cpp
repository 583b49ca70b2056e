#include <algorithm>

#include "fem/config.hpp"

#include "solvers/direct/band_cholesky_solver.hpp"
#include "solvers/direct/band_elimination.hpp"
#include "solvers/frontal/frontal_solver.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/linear_solver.hpp"
#if FEM_WITH_METIS
#include "solvers/multifrontal/multifrontal_solver.hpp"
#endif
#include "solvers/petsc/petsc_solver.hpp"

namespace fem {
namespace {

const std::map<std::string, SolverFactory>& registry() {
  // One line per method:device; each solver family adds its own.
  static const std::map<std::string, SolverFactory> solvers = {
      {"cg:cpu", make_conjugate_gradient},
      {"band-cholesky:cpu", make_band_cholesky_cpu},
      {"band-cholesky:cuda", make_band_cholesky_cuda},
      {"band-gauss:cpu", make_band_gauss_cpu},
      {"band-ldlt:cpu", make_band_ldlt_cpu},
      {"cg:cuda", make_conjugate_gradient},
      {"cg:opencl", make_conjugate_gradient},
      {"bicgstab:cpu", make_bicgstab},
      {"bicgstab:cuda", make_bicgstab},
      {"bicgstab:opencl", make_bicgstab},
      {"frontal:cpu", make_cpu_frontal},
      {"frontal:opencl", make_opencl_frontal},
      {"frontal:cuda", make_cuda_frontal},
#if FEM_WITH_METIS
      {"multifrontal:cpu", make_multifrontal_cpu},
      {"multifrontal:cuda", make_multifrontal_cuda},
#endif
      {"petsc:cpu", make_petsc_cpu},
      {"mumps:cpu", make_mumps_cpu},
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

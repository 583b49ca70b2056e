#include "fem/parallel/petsc_summary.hpp"

#include "solvers/petsc/petsc_ksp.hpp"

namespace fem {

void describe_petsc_solve(nlohmann::json& summary, const SolveReport& report, const SolverOptions& options,
                          const std::vector<std::int64_t>& equations_per_rank) {
  const auto figure = [&](const char* key) { return report.figures.count(key) ? report.figures.at(key) : 0.0; };
  summary["ranks"] = equations_per_rank.size();
  summary["equations_per_rank"] = equations_per_rank;
  summary["petsc_options"] = options.petsc_options;
  summary["converged_reason"] = petsc::converged_reason_name(static_cast<int>(figure("converged_reason")));
  summary["time_pcsetup_s"] = figure("pc_setup_s");
  summary["time_kspsolve_s"] = figure("ksp_solve_s");
}

}  // namespace fem

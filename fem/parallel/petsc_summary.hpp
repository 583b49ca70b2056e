#pragma once
// The figures a PETSc solve (petsc, mumps) adds to the run summary, on one process or several.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "solvers/linear_solver.hpp"

namespace fem {

void describe_petsc_solve(nlohmann::json& summary, const SolveReport& report, const SolverOptions& options,
                          const std::vector<std::int64_t>& equations_per_rank);

}  // namespace fem

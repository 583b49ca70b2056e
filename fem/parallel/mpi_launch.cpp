#include "fem/parallel/mpi_launch.hpp"

#include "fem/case/case.hpp"
#include "fem/config.hpp"
#include "solvers/solver_table.hpp"

namespace fem {

bool is_distributed_method(SolverMethodId method) {
  const SolverMethod* row = find_solver_method(method);
  return row && row->processes == Processes::Many;
}

void require_solver_for_ranks(SolverMethodId method, int ranks) {
  if (ranks <= 1) return;
  const std::string started = "fem was started as " + std::to_string(ranks) + " processes (mpirun/srun)";
  if (!FEM_WITH_PETSC)
    throw CaseError(started + ", but this build has no PETSc (FEM_WITH_PETSC=OFF): run it as one process");
  if (!is_distributed_method(method)) {
    std::string choices;
    for (const auto& row : solver_table())
      if (row.processes == Processes::Many) choices += std::string(choices.empty() ? "--solver " : " or --solver ") + name_of(row.id);
    throw CaseError(started + ": solver '" + name_of(method) + "' runs in one process only; use " + choices + " under mpirun");
  }
}

}  // namespace fem

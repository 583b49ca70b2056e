#pragma once
// Which solvers may run on the processes a launcher started (support/launched_ranks.hpp counts
// them), so that fem can refuse a multi-process run of a one-process solver without starting MPI.
#include <string>

#include "solvers/solver_choices.hpp"
#include "support/launched_ranks.hpp"

namespace fem {

// True for the methods that run on several processes: petsc and mumps.
bool is_distributed_method(SolverMethodId method);

// Throws CaseError unless `method` can run on `ranks` processes: any method on one, only petsc
// and mumps on more (and only in a build with PETSc).
void require_solver_for_ranks(SolverMethodId method, int ranks);

}  // namespace fem

#pragma once
// How many processes a launcher (mpirun, srun) started this one among, read from the variables
// it sets, so that fem can refuse a multi-process run of a one-process solver without starting
// MPI itself.
#include <string>

namespace fem {

// Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE (MPICH, Intel MPI, srun --mpi=pmi2); 1 when neither is set.
int launched_ranks();

// True for the methods that run on several processes: petsc and mumps.
bool is_distributed_method(const std::string& method);

// Throws CaseError unless `method` can run on `ranks` processes: any method on one, only petsc
// and mumps on more (and only in a build with PETSc).
void require_solver_for_ranks(const std::string& method, int ranks);

}  // namespace fem

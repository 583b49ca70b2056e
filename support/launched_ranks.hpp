#pragma once
// How many processes a launcher (mpirun, srun) started this one among, read from the variables
// it sets, without starting MPI: fem refuses a multi-process run of a one-process solver by it,
// and progress lines stop rewriting themselves in place (a launcher gives ranks a pseudo-terminal
// whose escapes end up in the log).

namespace fem {

// Open MPI's OMPI_COMM_WORLD_SIZE, or PMI_SIZE (MPICH, Intel MPI, srun --mpi=pmi2); 1 when neither is set.
int launched_ranks();

}  // namespace fem

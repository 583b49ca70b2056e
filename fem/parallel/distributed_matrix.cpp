#include "fem/parallel/distributed_matrix.hpp"

#include "solvers/petsc/petsc_session.hpp"

namespace fem {

using petsc::check;

void make_preallocated_system(petsc::OwnedMat& matrix, petsc::OwnedVec& rhs, std::int64_t global, int d,
                              const RowCounts& counts) {
  const auto local = static_cast<PetscInt>(counts.diagonal.size());
  const auto all = static_cast<PetscInt>(global);
  check(MatCreate(PETSC_COMM_WORLD, matrix.out()), "MatCreate");
  check(MatSetSizes(matrix, local, local, all, all), "MatSetSizes");
  check(MatSetBlockSize(matrix, d), "MatSetBlockSize");
  check(MatSetType(matrix, MATAIJ), "MatSetType");
  check(MatSeqAIJSetPreallocation(matrix, 0, counts.diagonal.data()), "MatSeqAIJSetPreallocation");
  check(MatMPIAIJSetPreallocation(matrix, 0, counts.diagonal.data(), 0, counts.off_diagonal.data()),
        "MatMPIAIJSetPreallocation");
  check(MatSetOption(matrix, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE), "MatSetOption");  // the count must be exact
  check(VecCreateMPI(PETSC_COMM_WORLD, local, all, rhs.out()), "VecCreateMPI");
}

}  // namespace fem

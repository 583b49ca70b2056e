// The petsc and mumps rows' part of the solver table in a build with PETSc.
#include "solvers/optional_parts.hpp"
#include "solvers/petsc/petsc_session.hpp"
#include "solvers/petsc/petsc_solver.hpp"

namespace fem {

PetscPart petsc_part() {
  return {make_petsc_cpu, make_mumps_cpu, {{"petsc", petsc::petsc_version()}, {"mumps", petsc::mumps_version()}}};
}

}  // namespace fem

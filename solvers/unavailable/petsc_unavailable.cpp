// petsc_part in a build without PETSc: no factories, no libraries.
#include "solvers/optional_parts.hpp"

namespace fem {

PetscPart petsc_part() { return {}; }

}  // namespace fem

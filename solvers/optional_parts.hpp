#pragma once
// What the solver families that only some builds have give the solver tables: their factories and
// the versions of the libraries they use. Each part is defined beside its family when CMake
// builds the family (solvers/multifrontal/multifrontal_part.cpp with METIS,
// solvers/petsc/petsc_part.cpp with PETSc, solvers/petsc/slepc_part.cpp with SLEPc) and in
// solvers/unavailable/ when it does not: no factories and no libraries, so that the rows still
// list the method and say how to configure the build.
#include <map>
#include <string>

#include "solvers/solver_table.hpp"

namespace fem {

// Library versions by name ("metis": "5.1.0"), for the environment of study reports.
using LibraryVersions = std::map<std::string, std::string>;

struct MultifrontalPart {
  SolverFactory cpu = nullptr, cuda = nullptr;
  LibraryVersions libraries;
};
MultifrontalPart multifrontal_part();

struct PetscPart {
  SolverFactory petsc = nullptr, mumps = nullptr;
  LibraryVersions libraries;
};
PetscPart petsc_part();

// The SLEPc eigen solver (slepc_eigen, solvers/eigen_table.hpp) is SLEPc's part; its library:
LibraryVersions slepc_libraries();

}  // namespace fem

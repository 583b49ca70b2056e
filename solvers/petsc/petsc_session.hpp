#pragma once
// PETSc for the whole process: initialised on first need (a run with fem's own solvers never
// starts PETSc or MPI), finalised at exit. PETSc errors become C++ exceptions that carry
// PETSc's own message instead of a traceback on stderr.
#include <petscsys.h>

#include <string>

namespace fem::petsc {

// Initialises PETSc (and MPI, unless the program already did) once per process; later calls do
// nothing. Throws SolverUnavailable when PETSc cannot start.
void ensure_initialized();

// Throws SolveFailure "petsc: <what>: <PETSc's message>" when `code` reports an error.
void check(PetscErrorCode code, const std::string& what);

// Resident memory of this process in bytes (PETSc's own measure), for what a solve allocated.
double resident_bytes();

}  // namespace fem::petsc

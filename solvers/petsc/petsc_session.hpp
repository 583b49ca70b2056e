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

// "3.18.4" and "5.5.1": the PETSc and MUMPS this build solves with, for reports (PETSc is not
// started for them).
std::string petsc_version();
std::string mumps_version();

// Resident memory of this process in bytes (PETSc's own measure), for what a solve allocated.
double resident_bytes();

}  // namespace fem::petsc

#include "solvers/petsc/petsc_session.hpp"

#include <dmumps_c.h>
#include <petscversion.h>

#include <cstdlib>

#include "solvers/linear_solver.hpp"

namespace fem::petsc {
namespace {

std::string& first_error_message() {
  static std::string message;
  return message;
}

// PETSc calls its error handler where an error starts and again in each function it unwinds
// through; the first call carries the message worth showing.
PetscErrorCode remember_error(MPI_Comm, int, const char* function, const char*, PetscErrorCode code,
                              PetscErrorType type, const char* message, void*) {
  if (type == PETSC_ERROR_INITIAL)
    first_error_message() = std::string(message ? message : "") + " (in " + (function ? function : "?") + ")";
  return code;
}

void finalize() { PetscFinalize(); }

}  // namespace

void ensure_initialized() {
  static const bool initialized = [] {
    PetscBool running = PETSC_FALSE;
    PetscInitialized(&running);
    if (!running) {
      // Without -skip_petscrc PETSc reads .petscrc and petscrc where fem runs (and ~/.petscrc):
      // a folder's .petscrc would pass the options solver.petsc_options refuses (files read or
      // written, handlers). PETSc keeps argv: static storage.
      static char name[] = "fem", skip[] = "-skip_petscrc";
      static char* arguments[] = {name, skip, nullptr};
      static int argc = 2;
      static char** argv = arguments;
      if (PetscInitialize(&argc, &argv, nullptr, nullptr) != 0) throw SolverUnavailable("petsc: PetscInitialize failed");
      std::atexit(finalize);
    }
    PetscPopSignalHandler();  // a crash stays a crash, not PETSc's "caught signal" advice
    PetscPushErrorHandler(remember_error, nullptr);
    return true;
  }();
  (void)initialized;
}

void check(PetscErrorCode code, const std::string& what) {
  if (code == 0) return;
  std::string message = first_error_message();
  first_error_message().clear();
  if (message.empty()) {
    const char* text = nullptr;
    PetscErrorMessage(code, &text, nullptr);
    message = text ? text : "error " + std::to_string(code);
  }
  throw SolveFailure("petsc: " + what + ": " + message);
}

double resident_bytes() {
  PetscLogDouble bytes = 0;
  PetscMemoryGetCurrentUsage(&bytes);
  return bytes;
}

std::string petsc_version() {
  return std::to_string(PETSC_VERSION_MAJOR) + "." + std::to_string(PETSC_VERSION_MINOR) + "." +
         std::to_string(PETSC_VERSION_SUBMINOR);
}

std::string mumps_version() { return MUMPS_VERSION; }

}  // namespace fem::petsc

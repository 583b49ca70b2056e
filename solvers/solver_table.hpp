#pragma once
// The solver table: every method fem knows, the devices it runs on and what the rest of fem needs
// to know about it. The case validator, the command line's choices and help, `fem check`, the
// studies and the renumbering all read this one table; its rows are in solvers/registry.cpp,
// and make_solver (solvers/linear_solver.hpp) builds from it.
#include <map>
#include <string>
#include <vector>

#include "solvers/linear_solver.hpp"

namespace fem {

using SolverFactory = std::unique_ptr<LinearSolver> (*)(const SolverOptions&);

enum class SolverKind { Direct, Iterative };

// What the numbering of the unknowns should make small for a method (solver.renumber: auto).
enum class OrderingGoal { Bandwidth, Front, Locality };

// What a method holds beside the matrix it is given, for the estimates made before assembly
// (fem/resources/memory_estimate.cpp, `fem check`): the shape of its factor, or the work vectors
// of an iterative method and the matrix products per iteration.
struct Footprint {
  enum Shape {
    Band,                    // b+1 columns (Cholesky, LDL^T)
    BandBothTriangles,       // 3b+1 columns (LU: the row exchanges fill 2b above the diagonal)
    ProfileAndFront,         // the factor's profile and one dense front; never assembles
    NestedDissectionFactor,  // a sparse factor of nested-dissection fill
    KrylovVectors,           // `vectors` of n and `products` SpMVs per iteration
  } shape;
  int vectors = 0, products = 0;
  double matrix_copies = 0;  // copies of the matrix the method makes (PETSc's, MUMPS's, GAMG's levels)
};

// Whether a method can run as several processes under mpirun (each rank its part of the mesh).
enum class Processes { One, Many };

// A configure-time part of fem that a method needs on a device.
struct BuildOption {
  bool built;
  const char* how;  // how to get it: "configure with -DFEM_WITH_METIS=ON (Debian: libmetis-dev)"
};

struct SolverDevice {
  Device device;
  const char* name() const { return name_of(device); }
  SolverFactory factory;           // null where this build lacks one of `needs`
  std::vector<BuildOption> needs = {};  // none: every build has it
  bool built() const;
  std::string missing() const;     // how to get the parts this build lacks ("" when built)
};

struct SolverMethod {
  SolverMethodId id;      // solver.method, --solver
  const char* name() const { return name_of(id); }
  SolverKind kind;
  OrderingGoal ordering;
  Footprint footprint;
  Processes processes;
  const char* help;       // one line for --help and `fem solvers`
  std::vector<SolverDevice> devices;
  bool built() const {  // on some device
    for (const auto& device : devices)
      if (device.built()) return true;
    return false;
  }
};

// Whether `method` takes solver.preconditioner: our Krylov methods do; PETSc's KSP takes its own
// from solver.petsc_options, and direct methods none.
bool takes_preconditioner(SolverMethodId method);

// The fill-reducing ordering a method that orders the equations itself used on the solve that
// left `report`: nested dissection (METIS) for multifrontal, MUMPS's own choice for mumps; empty
// for methods that solve in the numbering they are given.
std::string own_ordering_used(SolverMethodId method, const SolveReport& report);

// The libraries behind the table's rows in this build, by name ("petsc": "3.18.4", "blas": its
// configuration and threads), for the environment of study reports.
std::map<std::string, std::string> solver_libraries();

// The table, in the order usage text lists it.
const std::vector<SolverMethod>& solver_table();

// Every method and every device of the table, built here or not: what a case file may name.
std::vector<const char*> solver_methods();
std::vector<const char*> solver_devices();

// The table's row of `method`, or null (auto has none).
const SolverMethod* find_solver_method(SolverMethodId method);

// "unknown method 'lu' (expected one of: ...)" or the same for the device; empty when the table
// has both names. For the edges that read a method and a device as text (study rows).
std::string unknown_solver_name(const std::string& method, const std::string& device);

// Why `method` on `device` cannot be made here: a method without a row (auto), a device the method
// does not run on, or a part this build lacks (saying how to configure it); empty when it can.
std::string solver_unavailable_reason(SolverMethodId method, Device device);
// Throws SolverUnavailable with that reason (fem run and fem check, before they mesh).
void require_available_solver(SolverMethodId method, Device device);

}  // namespace fem

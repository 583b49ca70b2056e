#pragma once
// The eigen solvers of a modal analysis: what analysis.method names, and what a row of
// `fem compare` / `fem sweep` on a modal case is written as: method:device, then for shift-invert
// Lanczos the linear method that factorises K - sigma M ("lanczos:cpu:multifrontal",
// "lanczos:cuda:band-cholesky") and for LOBPCG its preconditioner ("lobpcg:cpu:amg"). One table
// for the case validator, the comparison rows and the help text; its rows are in
// solvers/eigen_registry.cpp.
#include <string>
#include <vector>

#include "solvers/eigen/eigen_problem.hpp"
#include "solvers/solver_table.hpp"

namespace fem {

// What the third word of a comparison row names.
enum class EigenInner {
  LinearMethod,   // a method of the solver table, on the row's device (required)
  Amg,            // "amg", the only preconditioner it takes (optional)
  None,           // nothing
};

struct EigenMethodRow {
  const char* name;                  // analysis.method, the first word of a row
  EigenInner inner;
  const char* help;                  // one line for --help
  std::vector<const char*> devices;  // empty: those of the linear method
  BuildOption needs;                 // a part of the build it needs ({true, ""}: none)
};

const std::vector<EigenMethodRow>& eigen_table();
const EigenMethodRow* find_eigen_method(const std::string& name);
std::vector<const char*> eigen_methods();  // every name, built here or not

// Why `method` on `device` (for lanczos: with the linear method `linear`) cannot run here: a
// device it does not run on, a part this build lacks (saying how to configure it); "" when it can.
std::string eigen_unavailable_reason(const std::string& method, const std::string& device, const std::string& linear);

// The table as help text: one line per method, with the row syntax.
std::string eigen_lines();

// SLEPc's Krylov-Schur with MUMPS shift-invert (solvers/petsc/slepc_eigen.hpp). Throws
// SolverUnavailable in a build without SLEPc.
eigen::EigenResult slepc_eigen(const CsrMatrix& k, const CsrMatrix& m, const eigen::EigenOptions& options);

}  // namespace fem

// The slepc row's part of the eigen table in a build with SLEPc.
#include "solvers/eigen_table.hpp"
#include "solvers/optional_parts.hpp"
#include "solvers/petsc/slepc_eigen.hpp"

namespace fem {

eigen::EigenResult slepc_eigen(const CsrMatrix& k, const CsrMatrix& m, const eigen::EigenOptions& options) {
  return petsc::slepc_krylov_schur(k, m, options);
}

LibraryVersions slepc_libraries() { return {{"slepc", petsc::slepc_version()}}; }

}  // namespace fem

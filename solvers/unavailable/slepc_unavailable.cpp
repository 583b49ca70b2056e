// The slepc row's part in a build without SLEPc: it says how to configure the build.
#include "solvers/eigen_table.hpp"
#include "solvers/optional_parts.hpp"

namespace fem {

eigen::EigenResult slepc_eigen(const CsrMatrix&, const CsrMatrix&, const eigen::EigenOptions&) {
  throw SolverUnavailable("slepc is not available in this build (" + std::string(find_eigen_method("slepc")->needs.how) +
                          ")");
}

LibraryVersions slepc_libraries() { return {}; }

}  // namespace fem

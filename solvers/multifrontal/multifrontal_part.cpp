// The multifrontal rows' part of the solver table in a build with METIS.
#include "solvers/multifrontal/multifrontal_solver.hpp"
#include "solvers/multifrontal/nested_dissection.hpp"
#include "solvers/optional_parts.hpp"

namespace fem {

MultifrontalPart multifrontal_part() {
  return {make_multifrontal_cpu, make_multifrontal_cuda, {{"metis", multifrontal::metis_version()}}};
}

}  // namespace fem

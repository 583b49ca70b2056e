// multifrontal_part in a build without METIS: no factories, no library.
#include "solvers/optional_parts.hpp"

namespace fem {

MultifrontalPart multifrontal_part() { return {}; }

}  // namespace fem

#pragma once
// `fem check CASE.yaml`: a dry run. Validates the case, meshes it, checks its groups, renumbers,
// and prints the sizes, bandwidth and profile and, per solver method, the estimated memory and a
// rough time, without assembling, solving or writing anything.
#include <filesystem>
#include <iosfwd>

#include "fem/pipeline/run_overrides.hpp"

namespace fem {

// Returns 0; throws (CaseError, ResourceError ...) like `fem run` for a case that would fail
// before its solve.
int check_case(const std::filesystem::path& case_file, const RunOverrides& overrides, std::ostream& log);

}  // namespace fem

#pragma once
// The summary of a run with load cases: DESIGN.md's `load_cases` list in the JSON, one entry per
// case, and one console line per case.
#include <iosfwd>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/pipeline/executor.hpp"
#include "fem/pipeline/load_cases.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "fem/post/nodal_results.hpp"

namespace fem {

// run_summary's JSON for a run whose load sets are `cases` (solved and recovered in that order;
// `common` gives what they share: case, mesh, numbering, sizes). `load_cases` holds per case its
// name, residual, reactions and max_displacement and max_von_mises (elasticity) or
// temperature_range (heat); the top-level residual and extremes are the worst over the cases,
// and the reactions are per case only.
nlohmann::json load_case_summary(const RunRecord& common, const std::vector<LoadCase>& cases,
                                 const std::vector<SolveOutcome>& solved, const std::vector<NodalResults>& results);

// One line per load case: its extremes and residual.
void print_load_cases(std::ostream& log, const nlohmann::json& summary);

}  // namespace fem

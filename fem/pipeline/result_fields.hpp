#pragma once
// What a run hands the result sink: the fields the case asks for and how a viewer shows them first.
#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/nodal_results.hpp"

namespace fem {

// The fields the case asks for (output.fields; all when it names none) on problem's mesh;
// `summary` gives the largest displacement, which scales the deformed view.
ResultFields result_fields(const Case& c, const Problem& problem, const NodalResults& results,
                           const nlohmann::json& summary);

}  // namespace fem

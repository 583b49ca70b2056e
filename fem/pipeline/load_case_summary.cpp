#include "fem/pipeline/load_case_summary.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace fem {

using nlohmann::json;

json load_case_summary(const RunRecord& common, const std::vector<LoadCase>& cases,
                       const std::vector<SolveOutcome>& solved, const std::vector<NodalResults>& results) {
  json summary;
  json entries = json::array();
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const json one = run_summary({common.run_case, common.mesh, cases[k].problem, common.ordering, common.dofs,
                                  common.nnz, solved[k], results[k]});
    json entry = {{"name", cases[k].name}, {"residual", one["residual"]}, {"converged", one["converged"]},
                  {"reactions", one["reactions"]}};
    for (const char* key : {"max_displacement", "max_von_mises", "temperature_range", "applied_total",
                            "reaction_total", "heat_in_total", "balance"})
      if (one.contains(key)) entry[key] = one[key];
    if (k == 0) {
      summary = one;  // what the cases share: sizes, numbering, solver, its report
      summary.erase("reactions");
    } else {
      summary["residual"] = std::max(summary["residual"].get<double>(), one["residual"].get<double>());
      if (one.contains("balance"))  // the worst case's, as the residual
        summary["balance"] = std::max(summary["balance"].get<double>(), one["balance"].get<double>());
      if (!one["converged"].get<bool>()) {
        summary["converged"] = false;
        summary["not_converged_because"] = one["not_converged_because"];
      }
      for (const char* key : {"max_displacement", "max_von_mises"})
        if (one.contains(key)) summary[key] = std::max(summary[key].get<double>(), one[key].get<double>());
      if (one.contains("temperature_range"))
        summary["temperature_range"] = {std::min(summary["temperature_range"][0].get<double>(), one["temperature_range"][0].get<double>()),
                                        std::max(summary["temperature_range"][1].get<double>(), one["temperature_range"][1].get<double>())};
    }
    entries.push_back(std::move(entry));
  }
  summary["load_cases"] = std::move(entries);
  return summary;
}

void print_load_cases(std::ostream& log, const json& summary) {
  if (!summary.contains("load_cases")) return;
  for (const auto& entry : summary["load_cases"]) {
    // The summary table's label column, with a space after a name that overruns it.
    log << "  " << std::left << std::setw(21) << "load case " + entry["name"].get<std::string>() << ' '
        << std::setprecision(4);
    if (entry.contains("max_displacement"))
      log << "max |displacement| " << entry["max_displacement"].get<double>() << ", max von Mises "
          << entry["max_von_mises"].get<double>();
    else
      log << "temperature " << entry["temperature_range"][0].get<double>() << " .. "
          << entry["temperature_range"][1].get<double>();
    log << ", residual " << std::scientific << std::setprecision(2) << entry["residual"].get<double>();
    if (entry.contains("balance")) log << ", balance " << entry["balance"].get<double>();
    log << std::defaultfloat << std::setprecision(6) << "\n";
  }
}

}  // namespace fem

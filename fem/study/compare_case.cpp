#include "fem/study/compare_case.hpp"
#include "fem/pipeline/make_mesh.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "fem/pipeline/number_format.hpp"
#include "fem/resources/case_fit.hpp"
#include "fem/study/environment.hpp"
#include "support/host_memory.hpp"

namespace fem::study {

StudyResult compare_case(const std::filesystem::path& case_file, const RunOverrides& overrides, CompareSettings settings,
                         const std::string& command, std::ostream& log) {
  Case c = load_case_with(case_file, overrides);
  if (settings.renumberings.empty()) settings.renumberings = {c.solver.renumber};
  StudyResult result;
  result.kind = "compare";
  result.title = c.title;
  result.case_file = c.file.string();
  result.command = command;
  result.environment = study_environment();
  nlohmann::json solvers = nlohmann::json::array();
  for (const auto& s : settings.combinations) solvers.push_back(s.name());
  result.settings = {{"solvers", solvers},
                     {"renumber", settings.renumberings},
                     {"repeat", settings.repeat},
                     {"tolerance", settings.tolerance},
                     {"iterative_tolerance", c.solver.tolerance},
                     {"preconditioner", name_of(c.solver.preconditioner)},
                     {"precision", name_of(c.solver.precision)}};

  log << "fem: compare  " << c.file.string() << ": " << c.title << "\n";
  resources::require_mesh_fits(c, host_available_memory());
  const Mesh mesh = make_mesh(c.mesh);
  log << "fem: mesh     " << with_commas(static_cast<long long>(mesh.num_nodes())) << " nodes, "
      << with_commas(static_cast<long long>(mesh.cells.size())) << " elements\n";
  BudgetLedger ledger(settings.budget);
  std::string reference;
  result.rows = compare_on_mesh(c, mesh, settings, "", ledger, reference, log);
  result.environment["load_average_after"] = load_average();
  // A study in which nothing was solved is a failure, not a report of empty rows.
  if (std::none_of(result.rows.begin(), result.rows.end(), [](const StudyRow& r) { return r.status == RowStatus::Ok; })) {
    std::string reasons;
    for (const auto& r : result.rows)
      reasons += "\n  " + r.combination() + ": " + status_name(r.status) + ": " + r.message;
    throw std::runtime_error(c.file.string() + ": no solver in the comparison solved the case:" + reasons);
  }
  return result;
}

}  // namespace fem::study

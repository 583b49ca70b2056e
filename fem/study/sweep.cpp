#include "fem/study/sweep.hpp"
#include "fem/pipeline/make_mesh.hpp"

#include <algorithm>
#include <ostream>

#include "fem/pipeline/number_format.hpp"
#include "fem/study/environment.hpp"

namespace fem::study {

std::vector<GrowthFit> fit_growth(const std::vector<StudyRow>& rows) {
  std::vector<GrowthFit> fits;
  std::vector<std::pair<std::string, std::string>> seen;
  for (const auto& row : rows) {
    const std::pair key{row.combination(), row.renumber};
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    std::vector<double> dofs, time, memory;
    for (const auto& r : rows)
      if (r.combination() == key.first && r.renumber == key.second && r.status == RowStatus::Ok) {
        dofs.push_back(static_cast<double>(r.dofs));
        time.push_back(r.time_total_s.median);
        memory.push_back(r.solver_memory_bytes);
      }
    fits.push_back({key.first, key.second, fit_power_law(dofs, time), fit_power_law(dofs, memory)});
  }
  return fits;
}

StudyResult run_sweep(const StudyFile& study, const std::string& command, std::ostream& log,
                      const std::function<void(const StudyResult&)>& after_each_size) {
  Case c = load_case_with(study.case_file, study.solver);
  StudyResult result;
  result.kind = "sweep";
  result.title = study.title;
  result.case_file = study.case_file.string();
  result.study_file = study.file.string();
  result.command = command;
  result.environment = study_environment();
  nlohmann::json solvers = nlohmann::json::array(), sizes = nlohmann::json::array();
  for (const auto& s : study.settings.combinations) solvers.push_back(s.name());
  for (const auto& s : study.sizes) sizes.push_back(s.label);
  result.settings = {{"solvers", solvers},
                     {"renumber", study.settings.renumberings},
                     {"sizes", sizes},
                     {"repeat", study.settings.repeat},
                     {"tolerance", study.settings.tolerance},
                     {"budget_time_s", study.settings.budget.time_s},
                     {"budget_memory_bytes", study.settings.budget.memory_bytes},
                     {"iterative_tolerance", c.solver.tolerance},
                     {"preconditioner", name_of(c.solver.preconditioner)},
                     {"precision", name_of(c.solver.precision)}};

  log << "fem: sweep    " << study.file.string() << ": " << study.title << "\n"
      << "fem: sweep    " << study.sizes.size() << " sizes x " << study.settings.combinations.size() << " solvers x "
      << study.settings.renumberings.size() << " renumberings, " << study.settings.repeat << " repeats each\n";
  BudgetLedger ledger(study.settings.budget);
  std::string reference;  // the same solver's solution at every size
  for (std::size_t i = 0; i < study.sizes.size(); ++i) {
    const StudySize& size = study.sizes[i];
    Case sized = c;
    if (!size.divisions.empty()) sized.mesh.box.divisions = size.divisions;
    else sized.mesh.size = size.element_size;
    log << "fem: size     " << i + 1 << "/" << study.sizes.size() << ": " << size.label << "\n" << std::flush;
    const Mesh mesh = make_mesh(sized.mesh);
    auto rows = compare_on_mesh(sized, mesh, study.settings, size.label, ledger, reference, log);
    result.rows.insert(result.rows.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    result.fits = fit_growth(result.rows);
    if (after_each_size && i + 1 < study.sizes.size()) {
      result.complete = false;
      after_each_size(result);
      result.complete = true;
    }
  }
  result.environment["load_average_after"] = load_average();
  return result;
}

}  // namespace fem::study

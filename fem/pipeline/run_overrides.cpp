#include "fem/pipeline/run_overrides.hpp"

#include "solvers/solver_table.hpp"

namespace fem {
namespace {

std::string choose_override(const std::string& key, const std::string& value, const std::vector<const char*>& allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return value;
    list += std::string(list.empty() ? "" : ", ") + a;
  }
  throw CaseError("--" + key + " " + value + ": expected one of " + list);
}

}  // namespace

void apply_overrides(Case& c, const RunOverrides& o) {
  if (o.method) c.solver.method = *parse_choice<SolverMethodId>(choose_override("solver", *o.method, case_solver_methods()));
  if (o.device) c.solver.device = *parse_choice<Device>(choose_override("device", *o.device, solver_devices()));
  if (o.renumber) c.solver.renumber = choose_override("renumber", *o.renumber, kRenumberMethods);
  if (o.preconditioner)
    c.solver.preconditioner =
        *parse_choice<Preconditioner>(choose_override("preconditioner", *o.preconditioner, choice_names<Preconditioner>()));
  if (o.precision)
    c.solver.precision = *parse_choice<Precision>(choose_override("precision", *o.precision, choice_names<Precision>()));
  if (o.tolerance) {
    if (const std::string problem = tolerance_problem(*o.tolerance); !problem.empty()) throw CaseError("--tolerance: " + problem);
    c.solver.tolerance = *o.tolerance;
  }
  if (o.output_directory) c.output.directory = std::filesystem::absolute(*o.output_directory);
}

Case load_case_with(const std::filesystem::path& case_file, const RunOverrides& overrides) {
  Case c = load_case(case_file, overrides.settings);
  apply_overrides(c, overrides);
  return c;
}

}  // namespace fem

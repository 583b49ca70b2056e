#pragma once
// The heart of `fem compare` and `fem sweep`: one mesh, the case's system under each
// renumbering assembled once, solved by every combination in turn in this process; one row
// per combination and renumbering. A combination that is unavailable or fails is a row that
// says so, and the study goes on.
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"
#include "fem/study/budget.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/study_row.hpp"

namespace fem::study {

// The most timed solves a row may ask for (--repeat, a study's repeat): enough for any spread, and
// a bound on a run that has no time budget.
inline constexpr int kMaxRepeat = 1000;

struct CompareSettings {
  std::vector<Combination> combinations;   // the first is the reference
  std::vector<std::string> renumberings;   // none | rcm | gps | sloan | auto
  int repeat = 1;                          // timed solves per row, 1 to kMaxRepeat
  double tolerance = 1e-6;                 // agreement: max_rel_diff <= tolerance
  Budget budget;
  bool progress = true;                    // progress lines during long solves (off: --quiet)
};

// Names a combination and renumbering in the BudgetLedger that is kept across the sizes of a sweep.
std::string budget_key(const std::string& combination, const std::string& renumber);

// Rows in the order renumbering, then combination. `size` labels the rows (sweeps). Every
// solved row is compared with the solution of `reference` (a budget_key): empty chooses the first
// row solved, and a sweep keeps that choice for every size, so that agreement is always checked
// against the same solver (at a size where it was not solved, rows have no agreement). The case's
// own solver settings (tolerance, preconditioner, precision ...) apply to every combination.
// Throws only for faults of the case itself (a missing group, an inverted element).
std::vector<StudyRow> compare_on_mesh(const Case& c, const Mesh& mesh, const CompareSettings& settings,
                                      const std::string& size, BudgetLedger& ledger, std::string& reference,
                                      std::ostream& log);

// The largest difference between two nodal solutions relative to the reference's largest
// entry: max_i |u_i - r_i| / max_i |r_i| (the absolute difference when r is all zeros).
double max_relative_difference(const std::vector<double>& u, const std::vector<double>& reference);

}  // namespace fem::study

#pragma once
// The time and memory budget of a study, per solve. A combination (solver and renumbering)
// that passes it gets no larger problems; before each solve its time is predicted from the
// growth of its earlier solves, and a solve that would pass the budget is not started; a solve
// that runs past it anyway is stopped from its progress callback (SolverOptions::progress).
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace fem::study {

// Per solve; 0 = no limit.
struct Budget {
  double time_s = 0;
  double memory_bytes = 0;
};

// Thrown from a solver's progress callback once its solve has run past the time budget.
class OverBudget : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BudgetLedger {
 public:
  explicit BudgetLedger(Budget budget) : budget_(budget) {}
  const Budget& budget() const { return budget_; }

  // Why combination `key` gets no solve at `dofs` (empty: it may go on): it passed the budget
  // before, or the power law through its earlier times (linear growth from one point) predicts
  // more than the time budget.
  std::string refusal(const std::string& key, std::int64_t dofs) const;
  // A finished solve: its time joins the growth fit; past the budget, the combination stops
  // there. Returns the note for the row ("passed the time budget ...: no larger sizes") or "".
  std::string record(const std::string& key, std::int64_t dofs, double seconds, double memory_bytes);
  // A solve stopped past the time budget: the combination stops there.
  void record_stopped(const std::string& key, std::int64_t dofs, double seconds);
  // The predicted seconds of a solve at `dofs` (0 without earlier solves).
  double predicted_seconds(const std::string& key, std::int64_t dofs) const;

 private:
  Budget budget_;
  std::map<std::string, std::string> dropped_;                            // key -> why
  std::map<std::string, std::vector<std::pair<double, double>>> times_;  // key -> (dofs, seconds)
};

}  // namespace fem::study

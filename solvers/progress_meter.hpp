#pragma once
// Progress of one long solve for SolverOptions::progress: at most one line every two seconds,
// with the time left estimated from what was observed so far. Direct solvers count steps
// (columns, fronts); Krylov solvers give their residual, and the time left follows from the
// convergence rate since the last line.
#include <cstdint>
#include <functional>
#include <string>

#include "solvers/linear_solver.hpp"
#include "support/stopwatch.hpp"

namespace fem {

class ProgressMeter {
 public:
  // Lines go to options.progress (none when it is empty), one per options.progress_interval_s.
  explicit ProgressMeter(const SolverOptions& options);

  // "columns 4,500 of 22,700 (20%), about 1 min 10 s left": `done` of `total` steps of about
  // equal cost each.
  void steps(const char* unit, std::int64_t done, std::int64_t total);
  // "fronts 1200 of 3400 (45% of the work), about 20 s left": steps of unequal cost, of which
  // the share `work_done` (0 to 1) of the total cost is done; the time left follows from it.
  void steps(const char* unit, std::int64_t done, std::int64_t total, double work_done);
  // "iteration 800, residual 3.1e-05, about 40 s left": the relative residual after
  // `iteration` iterations, towards `tolerance`.
  void iteration(int iteration, double residual, double tolerance);

 private:
  bool due();  // true once the interval has passed since the last line (or the start)
  void steps_line(const char* unit, std::int64_t done, std::int64_t total, double fraction, const char* of_what);

  std::function<void(const std::string&)> report_;
  double interval_s_;
  Stopwatch since_start_, since_last_line_;
  int last_iteration_ = 0;      // where the previous line's rate estimate starts
  double last_residual_ = 1;
  double last_elapsed_s_ = 0;
};

// "45 s", "3 min 20 s", "1 h 05 min": a duration as people read it in progress lines.
std::string duration_text(double seconds);

}  // namespace fem

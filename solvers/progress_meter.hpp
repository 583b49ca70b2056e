#pragma once
// Progress of one long solve for SolverOptions::progress: at most one line every two seconds,
// with the time left estimated from the rate measured between lines: the first line of a phase
// only says how far it is (its rate would include the start-up), later ones extrapolate the
// recent rate. Direct solvers count steps (columns, fronts); Krylov solvers give their residual,
// and the time left follows from the slope of the best residual over the last lines.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

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
  // Where the estimates start: the previous line's (steps) or the one before it (iterations,
  // whose residual wavers), as progress (fraction done, or best residual) against time.
  struct Sample {
    double elapsed_s = 0;
    double progress = 0;  // fraction done, or log10 of the best residual
    int iteration = 0;
  };
  std::vector<Sample> samples_;
  double best_residual_ = 0;    // the smallest residual heard so far (0: none yet)
};

// "45 s", "3 min 20 s", "1 h 05 min": a duration as people read it in progress lines.
std::string duration_text(double seconds);

}  // namespace fem

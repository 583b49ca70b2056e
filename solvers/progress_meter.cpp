#include "solvers/progress_meter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fem {

ProgressMeter::ProgressMeter(const SolverOptions& options)
    : report_(options.progress), interval_s_(options.progress_interval_s) {}

bool ProgressMeter::due() {
  if (!report_) return false;
  if (since_last_line_.seconds() < interval_s_) return false;
  since_last_line_.restart();
  return true;
}

void ProgressMeter::steps(const char* unit, std::int64_t done, std::int64_t total) {
  if (total > 0) steps_line(unit, done, total, static_cast<double>(done) / static_cast<double>(total), "");
}

void ProgressMeter::steps(const char* unit, std::int64_t done, std::int64_t total, double work_done) {
  steps_line(unit, done, total, work_done, " of the work");
}

void ProgressMeter::steps_line(const char* unit, std::int64_t done, std::int64_t total, double fraction,
                               const char* of_what) {
  if (done <= 0 || total <= 0 || !(fraction > 0) || !due()) return;
  const double elapsed = since_start_.seconds();
  char line[192];
  std::snprintf(line, sizeof line, "%s %lld of %lld (%.0f%%%s), about %s left", unit, static_cast<long long>(done),
                static_cast<long long>(total), 100 * fraction, of_what,
                duration_text(std::max(0.0, elapsed * (1 - fraction) / fraction)).c_str());
  report_(line);
}

void ProgressMeter::iteration(int iteration, double residual, double tolerance) {
  if (iteration <= last_iteration_ || !due()) return;
  const double elapsed = since_start_.seconds();
  // The rate since the last line: log10 of the residual per iteration, and seconds per iteration.
  const double decades_per_iteration =
      residual > 0 && last_residual_ > 0 ? (std::log10(last_residual_) - std::log10(residual)) / (iteration - last_iteration_) : 0;
  const double seconds_per_iteration = (elapsed - last_elapsed_s_) / (iteration - last_iteration_);
  char line[160];
  if (decades_per_iteration > 0) {
    const double iterations_left = std::max(0.0, (std::log10(residual) - std::log10(tolerance)) / decades_per_iteration);
    std::snprintf(line, sizeof line, "iteration %d, residual %.2e (to %.0e), about %s left", iteration, residual, tolerance,
                  duration_text(iterations_left * seconds_per_iteration).c_str());
  } else {
    std::snprintf(line, sizeof line, "iteration %d, residual %.2e (to %.0e), no estimate yet (it has not fallen since the last line)",
                  iteration, residual, tolerance);
  }
  last_iteration_ = iteration;
  last_residual_ = residual;
  last_elapsed_s_ = elapsed;
  report_(line);
}

std::string duration_text(double seconds) {
  char text[48];
  if (!(seconds < 1e7)) return "a long time";
  const auto s = static_cast<long long>(std::lround(seconds));
  if (s < 60) std::snprintf(text, sizeof text, "%lld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%lld min %02lld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, s % 3600 / 60);
  return text;
}

}  // namespace fem

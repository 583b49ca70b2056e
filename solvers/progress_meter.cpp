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
  std::string estimate = "measuring the rate";
  if (!samples_.empty()) {
    const Sample& from = samples_.back();
    estimate = fraction > from.progress
                   ? "about " + duration_text(std::max(0.0, (1 - fraction) * (elapsed - from.elapsed_s) /
                                                                (fraction - from.progress))) + " left"
                   : "no estimate (no progress since the last line)";
  }
  samples_.assign(1, {elapsed, fraction, 0});
  char line[192];
  std::snprintf(line, sizeof line, "%s %lld of %lld (%.0f%%%s), %s", unit, static_cast<long long>(done),
                static_cast<long long>(total), 100 * fraction, of_what, estimate.c_str());
  report_(line);
}

void ProgressMeter::iteration(int iteration, double residual, double tolerance) {
  if (residual > 0 && (best_residual_ == 0 || residual < best_residual_)) best_residual_ = residual;
  if (best_residual_ == 0 || (!samples_.empty() && iteration <= samples_.back().iteration) || !due()) return;
  const double elapsed = since_start_.seconds();
  const Sample now{elapsed, std::log10(best_residual_), iteration};
  std::string estimate = "measuring the rate";
  if (!samples_.empty()) {
    // Over the last two intervals: the slope of one interval jumps with CG's wavering residual.
    const Sample& from = samples_.front();
    const double decades_per_iteration = (from.progress - now.progress) / (now.iteration - from.iteration);
    const double seconds_per_iteration = (now.elapsed_s - from.elapsed_s) / (now.iteration - from.iteration);
    estimate = decades_per_iteration > 0
                   ? "about " +
                         duration_text(std::max(0.0, (now.progress - std::log10(tolerance)) / decades_per_iteration) *
                                       seconds_per_iteration) +
                         " left"
                   : "no estimate yet (it has not fallen lately)";
  }
  samples_.push_back(now);
  if (samples_.size() > 2) samples_.erase(samples_.begin());
  char line[192];
  std::snprintf(line, sizeof line, "iteration %d, residual %.2e (to %.0e), %s", iteration, residual, tolerance,
                estimate.c_str());
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

#include "fem/pipeline/phase_log.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "fem/pipeline/memory_watermark.hpp"
#include "support/step_times.hpp"

namespace fem {

PhaseLog::PhaseLog(std::ostream& log) : log_(log), progress_(log) { StepTimes::process().clear(); }

nlohmann::json PhaseLog::step_times() const { return StepTimes::process().snapshot(); }

void PhaseLog::set_time(const char* name, double seconds) {
  times_[name] = seconds;
  peaks_[name] = peak_memory_bytes();
}

void PhaseLog::describe(nlohmann::json& summary) const {
  summary["time_s"] = times_;
  summary["time_steps_s"] = step_times();
  summary["peak_memory_after_phase_bytes"] = peaks_;
}

void PhaseLog::start(const char* name) {
  current_ = name;
  watch_.restart();
}

double PhaseLog::finish(const char* name, const std::string& detail) {
  const double s = watch_.seconds();
  times_[name] = s;
  peaks_[name] = peak_memory_bytes();
  progress_.clear();
  log_ << "fem: " << std::left << std::setw(9) << name << detail << " (" << std::fixed << std::setprecision(2) << s
       << " s)" << std::defaultfloat << "\n"
       << std::flush;
  return s;
}

void PhaseLog::progress(const std::string& line) {
  std::ostringstream text;
  text << "fem: " << std::left << std::setw(9) << current_ << "... " << line;
  progress_.show(text.str());
}

}  // namespace fem

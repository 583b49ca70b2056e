#include "fem/pipeline/phase_log.hpp"

#include <chrono>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace fem {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

void PhaseLog::start(const char* name) {
  current_ = name;
  started_ = now_seconds();
}

double PhaseLog::finish(const char* name, const std::string& detail) {
  const double s = now_seconds() - started_;
  times_[name] = s;
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

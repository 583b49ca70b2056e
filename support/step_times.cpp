#include "support/step_times.hpp"

namespace fem {

StepTimes& StepTimes::process() {
  static StepTimes times;
  return times;
}

void StepTimes::add(const std::string& name, double seconds) {
  const std::lock_guard lock(mutex_);
  seconds_[name] += seconds;
}

std::map<std::string, double> StepTimes::snapshot() {
  const std::lock_guard lock(mutex_);
  return seconds_;
}

void StepTimes::clear() {
  const std::lock_guard lock(mutex_);
  seconds_.clear();
}

}  // namespace fem

#pragma once
// Seconds spent in named steps inside a run's phases ("assemble.pattern", "post.sweep", ...),
// kept process-wide so that a stage's inner code can report where its phase went without a log
// handed down to it; the run summary writes them as `time_steps_s`. Steps are coarse (a few per
// phase): a mutex guards the table.
#include <map>
#include <mutex>
#include <string>

#include "support/stopwatch.hpp"

namespace fem {

class StepTimes {
 public:
  static StepTimes& process();

  // Adds `seconds` to step `name` (a step run several times, e.g. per load case, sums).
  void add(const std::string& name, double seconds);
  // The steps so far, by name.
  std::map<std::string, double> snapshot();
  void clear();

 private:
  std::mutex mutex_;
  std::map<std::string, double> seconds_;
};

// Runs `work` as step `name` and returns what it returns.
template <class Work>
decltype(auto) timed_step(const char* name, Work&& work) {
  struct Record {
    const char* name;
    Stopwatch watch;
    ~Record() { StepTimes::process().add(name, watch.seconds()); }
  } record{name, {}};
  return work();
}

}  // namespace fem

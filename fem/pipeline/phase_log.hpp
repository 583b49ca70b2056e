#pragma once
// Times the phases of a run and prints "fem: <phase>  <what it did> (<seconds> s)" as each
// ends; long phases report progress on lines of their own in between.
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "fem/pipeline/progress_line.hpp"
#include "support/stopwatch.hpp"

namespace fem {

class PhaseLog {
 public:
  // A run's log: the process's step times (support/step_times.hpp) start afresh with it.
  explicit PhaseLog(std::ostream& log);

  // Runs `body` (which returns a one-line description of what it did) as phase `name`.
  template <class F>
  double run(const char* name, F&& body) {
    start(name);
    return finish(name, body());
  }
  // A progress line inside the current phase: "fem: <phase> ... <line>" (rewritten in place
  // on a terminal).
  void progress(const std::string& line);
  // A phase's seconds set by hand (the write phase's before its JSON is staged); its memory peak is now's.
  void set_time(const char* name, double seconds);
  // Seconds per phase, in the order they ran.
  const nlohmann::json& times() const { return times_; }
  // Seconds of the named steps inside the phases so far (StepTimes), by name.
  nlohmann::json step_times() const;
  // Into a run's JSON summary: time_s (times()), time_steps_s (step_times()) and
  // peak_memory_after_phase_bytes, the process's peak resident memory as each phase ended (a
  // running maximum: what a phase added is its value less the one before).
  void describe(nlohmann::json& summary) const;

 private:
  void start(const char* name);
  double finish(const char* name, const std::string& detail);

  std::ostream& log_;
  ProgressLine progress_;
  std::string current_;
  Stopwatch watch_;  // of the current phase
  nlohmann::json times_ = nlohmann::json::object();
  nlohmann::json peaks_ = nlohmann::json::object();
};

}  // namespace fem

#pragma once
// The one clock for timing phases, solves and benchmarks: wall-clock seconds on a monotonic
// clock (steady_clock), so a change of the system time cannot make a phase negative.
#include <chrono>
#include <vector>

namespace fem {

class Stopwatch {
 public:
  Stopwatch() : start_(Clock::now()) {}
  // Seconds since the start.
  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  // Seconds since the start, and starts again (one phase after another).
  double restart() {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    start_ = now;
    return elapsed;
  }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

// Seconds of each of `repeats` calls of `work`, one after another.
template <class Work>
std::vector<double> time_each(int repeats, Work&& work) {
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    const Stopwatch watch;
    work();
    seconds.push_back(watch.seconds());
  }
  return seconds;
}

}  // namespace fem

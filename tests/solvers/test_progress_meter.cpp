// Progress lines of long solves: throttled, with the fraction done and the time left from the
// rate observed so far; nothing when no one listens.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "solvers/progress_meter.hpp"

using namespace fem;

namespace {

struct Listener {
  std::vector<std::string> lines;
  SolverOptions options(double interval_s) {
    SolverOptions o;
    o.progress = [this](const std::string& line) { lines.push_back(line); };
    o.progress_interval_s = interval_s;
    return o;
  }
};

void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

}  // namespace

TEST_CASE("steps: the fraction done and the time left at the rate so far") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  pause_ms(200);
  meter.steps("columns", 250, 1000);
  REQUIRE(listener.lines.size() == 1);
  CHECK(listener.lines[0].find("columns 250 of 1000 (25%), about ") == 0);
  // 200 ms for a quarter: 600 ms left, which rounds to "1 s".
  CHECK(listener.lines[0].find("about 1 s left") != std::string::npos);
}

TEST_CASE("weighted steps: the time left follows the share of the work, not of the steps") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  pause_ms(200);
  meter.steps("fronts", 900, 1000, 0.25);  // most fronts done, a quarter of the work
  REQUIRE(listener.lines.size() == 1);
  CHECK(listener.lines[0].find("fronts 900 of 1000 (25% of the work), about ") == 0);
  // 200 ms for a quarter of the work: 600 ms left ("1 s"), not the 22 ms the fronts suggest.
  CHECK(listener.lines[0].find("about 1 s left") != std::string::npos);
  meter.steps("fronts", 1000, 1000, 1.0000001);  // rounding past the whole: nothing left, not negative
  CHECK(listener.lines.back().find("about 0 s left") != std::string::npos);
}

TEST_CASE("iterations: the time left follows from the convergence rate since the last line") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  pause_ms(100);
  meter.iteration(100, 1e-2, 1e-10);  // 2 decades in 100 iterations: 400 more for 8 decades
  REQUIRE(listener.lines.size() == 1);
  CHECK(listener.lines[0].find("iteration 100, residual 1.00e-02 (to 1e-10), about ") == 0);
  const auto seconds_left = std::stoi(listener.lines[0].substr(listener.lines[0].find("about ") + 6));
  CHECK(seconds_left >= 0);
  CHECK(seconds_left <= 2);
  meter.iteration(150, 2e-2, 1e-10);  // worse than before: no rate to go by
  CHECK(listener.lines.back().find("no estimate yet") != std::string::npos);
}

TEST_CASE("lines are throttled to the interval, and nothing is said without a listener") {
  Listener listener;
  ProgressMeter meter(listener.options(60.0));
  for (int k = 1; k <= 1000; ++k) meter.steps("columns", k, 1000);
  CHECK(listener.lines.empty());
  ProgressMeter silent(SolverOptions{});
  silent.steps("columns", 1, 2);  // must not call an empty function
  CHECK(duration_text(42) == "42 s");
  CHECK(duration_text(200) == "3 min 20 s");
  CHECK(duration_text(3900) == "1 h 05 min");
}

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

TEST_CASE("steps: the first line measures, later ones extrapolate the rate between lines") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  pause_ms(300);  // a slow start must not make the estimate
  meter.steps("columns", 100, 1000);
  REQUIRE(listener.lines.size() == 1);
  CHECK(listener.lines[0] == "columns 100 of 1000 (10%), measuring the rate");
  pause_ms(100);
  meter.steps("columns", 250, 1000);
  // 100 ms for 15 %: 500 ms for the 75 % left, "1 s" rounded; the slow start would say about 2 s.
  CHECK(listener.lines[1].find("columns 250 of 1000 (25%), about ") == 0);
  CHECK(listener.lines[1].find("about 1 s left") != std::string::npos);
  meter.steps("columns", 250, 1000);
  CHECK(listener.lines[2].find("no estimate") != std::string::npos);
}

TEST_CASE("weighted steps: the time left follows the share of the work, not of the steps") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  meter.steps("fronts", 100, 1000, 0.05);
  pause_ms(200);
  meter.steps("fronts", 900, 1000, 0.25);  // most fronts done, a fifth of the work since the last line
  REQUIRE(listener.lines.size() == 2);
  CHECK(listener.lines[1].find("fronts 900 of 1000 (25% of the work), about ") == 0);
  // 200 ms for a fifth of the work: 750 ms left ("1 s"), not the 22 ms the fronts suggest.
  CHECK(listener.lines[1].find("about 1 s left") != std::string::npos);
  meter.steps("fronts", 1000, 1000, 1.0000001);  // rounding past the whole: nothing left, not negative
  CHECK(listener.lines.back().find("about 0 s left") != std::string::npos);
}

TEST_CASE("iterations: the time left follows the best residual's slope over the last lines") {
  Listener listener;
  ProgressMeter meter(listener.options(0.0));
  meter.iteration(100, 1e-2, 1e-10);
  REQUIRE(listener.lines.size() == 1);
  CHECK(listener.lines[0] == "iteration 100, residual 1.00e-02 (to 1e-10), measuring the rate");
  pause_ms(100);
  meter.iteration(200, 1e-4, 1e-10);  // 2 decades in 100 iterations and 100 ms: 300 ms for 6 more
  const auto seconds_left = [&] { return std::stoi(listener.lines.back().substr(listener.lines.back().find("about ") + 6)); };
  REQUIRE(listener.lines.back().find("iteration 200, residual 1.00e-04 (to 1e-10), about ") == 0);
  CHECK(seconds_left() <= 1);
  pause_ms(100);
  meter.iteration(300, 1e-3, 1e-10);  // worse than the best: the line shows it, the estimate keeps to the best
  CHECK(listener.lines.back().find("residual 1.00e-03 (to 1e-10), about ") != std::string::npos);
  Listener stalled;
  ProgressMeter flat(stalled.options(0.0));
  flat.iteration(10, 1e-2, 1e-10);
  flat.iteration(20, 2e-2, 1e-10);
  CHECK(stalled.lines.back().find("no estimate yet") != std::string::npos);
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

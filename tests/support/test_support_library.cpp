// support/: the spread of timings, CSV tables (quoting, numbers, the column count), the
// atomic output, the stopwatch, the first failure of threaded work, and the exit codes and checks of our command lines.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "support/atomic_output.hpp"
#include "support/command_line.hpp"
#include "support/csv_table.hpp"
#include "support/first_failure.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"

using namespace fem;

TEST_CASE("spread_of: median of odd and even counts, min and max, whatever the order") {
  const Spread odd = spread_of({7, 1, 4, 9, 2});
  CHECK(odd.median == 4);
  CHECK(odd.min == 1);
  CHECK(odd.max == 9);
  const Spread even = spread_of({10, 3, 1, 2});
  CHECK(even.median == doctest::Approx(2.5));
  CHECK(even.min == 1);
  CHECK(even.max == 10);
  CHECK(spread_of({5}).median == 5);
  CHECK_THROWS_AS(spread_of({}), std::invalid_argument);
}

TEST_CASE("csv_field quotes only where CSV needs it, doubling inner quotes") {
  CHECK(csv_field("plain text; fine") == "plain text; fine");
  CHECK(csv_field("") == "");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("CsvTable: header, rows of text, integers and reals as a stream writes them, written atomically") {
  CsvTable table({"name", "count", "seconds", "note"});
  table.add({"hex8 40^3", 68921, 0.0123456789, "colouring, 8 colours"});
  table.add({std::string("quad9"), std::int64_t{-3}, 2.5e-11, ""});
  CHECK(table.text() ==
        "name,count,seconds,note\n"
        "hex8 40^3,68921,0.0123457,\"colouring, 8 colours\"\n"
        "quad9,-3,2.5e-11,\n");
  CHECK_THROWS_AS(table.add({"short row", 1}), std::logic_error);

  const auto dir = std::filesystem::temp_directory_path() / ("fem-support-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  table.write(dir / "table.csv");
  std::ifstream in(dir / "table.csv");
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == table.text());
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 1);  // no temporary left behind
  std::filesystem::remove_all(dir);
}

TEST_CASE("AtomicOutput: a commit that fails on its last file puts back every earlier result and leaves no temporaries") {
  const auto dir = std::filesystem::temp_directory_path() / ("fem-atomic-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "case.json");  // a folder where the last file goes: its rename fails
  for (const char* name : {"case.vtu", "case-view.py"}) std::ofstream(dir / name) << "earlier";
  const auto slurp = [&](const char* name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  {
    AtomicOutput output(dir);
    output.stage_text("case.vtu", "new mesh");
    output.stage_text("case-view.py", "new script");
    output.stage_text("case.new.vtu", "a file that was not there");
    output.stage_text("case.json", "new summary");
    CHECK_THROWS_WITH(output.commit(), doctest::Contains("case.json: cannot move the result into place"));
  }
  CHECK(slurp("case.vtu") == "earlier");
  CHECK(slurp("case-view.py") == "earlier");
  CHECK_FALSE(std::filesystem::exists(dir / "case.new.vtu"));
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 3);  // the two results and the folder
  std::filesystem::remove_all(dir);
}

TEST_CASE("Stopwatch: seconds grow, restart starts again; time_each times every call") {
  Stopwatch watch;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const double first = watch.restart();
  CHECK(first >= 0.019);
  CHECK(watch.seconds() < first);
  int calls = 0;
  const auto times = time_each(3, [&] {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  });
  CHECK(calls == 3);
  REQUIRE(times.size() == 3);
  for (double t : times) CHECK(t >= 0.0049);
}

namespace {

// run_command on `arguments` (argv[0] added) with one option, --count N (above 0); `body` runs
// when they parse.
int run_with(std::vector<std::string> arguments, const std::function<void(int)>& body) {
  CLI::App app("a command under test", "tool");
  int count = 1;
  app.add_option("--count", count, "how many")->check(positive_number());
  arguments.insert(arguments.begin(), "tool");
  std::vector<char*> argv;
  for (auto& a : arguments) argv.push_back(a.data());
  return run_command(app, static_cast<int>(argv.size()), argv.data(), [&] { body(count); });
}

}  // namespace

TEST_CASE("run_command: 0 when done or after --help, 2 for a bad option or value (body not run), 1 when the body throws") {
  int seen = 0;
  const auto remember = [&](int count) { seen = count; };
  CHECK(run_with({"--count", "3"}, remember) == 0);
  CHECK(seen == 3);
  seen = 0;
  CHECK(run_with({"--help"}, remember) == 0);
  CHECK(run_with({"--count", "0"}, remember) == 2);
  CHECK(run_with({"--count", "many"}, remember) == 2);
  CHECK(run_with({"--colour", "red"}, remember) == 2);
  CHECK(seen == 0);
  CHECK(run_with({}, [](int) { throw std::runtime_error("disk full"); }) == 1);
}

TEST_CASE("positive_number and non_negative_number name the rule and the value, and refuse what is not finite") {
  std::string zero = "0", negative = "-2.5", word = "ten", small = "1e-300", nan = "nan", inf = "inf", huge = "1e999";
  CHECK(positive_number()(zero) == "needs a finite number above 0, not 0");
  CHECK(positive_number()(small).empty());
  CHECK(non_negative_number()(zero).empty());
  CHECK(non_negative_number()(negative) == "needs a finite number of at least 0, not -2.5");
  CHECK(non_negative_number()(word) == "needs a finite number of at least 0, not ten");
  CHECK(non_negative_number()(nan) == "needs a finite number of at least 0, not nan");
  CHECK(positive_number()(inf) == "needs a finite number above 0, not inf");
  CHECK(positive_number()(huge) == "needs a finite number above 0, not 1e999");
}

TEST_CASE("FirstFailure: keeps the first of several threads' exceptions, rethrows it after they join") {
  FirstFailure failure;
  failure.run([] {});
  CHECK_FALSE(failure.failed());
  CHECK_NOTHROW(failure.rethrow_if_failed());

  // Thread 0 throws first; the others wait for it, then throw their own.
  std::vector<std::thread> threads;
  for (int id = 0; id < 4; ++id)
    threads.emplace_back([&failure, id] {
      if (id != 0)
        while (!failure.failed()) std::this_thread::yield();
      failure.run([id] { throw std::runtime_error("thread " + std::to_string(id)); });
    });
  for (auto& t : threads) t.join();
  CHECK(failure.failed());
  CHECK(failure.flag().load());
  CHECK_THROWS_WITH_AS(failure.rethrow_if_failed(), "thread 0", std::runtime_error);
}

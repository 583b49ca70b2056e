// support/: the spread of timings, CSV tables (quoting, numbers, the column count) and the
// stopwatch.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

#include "support/csv_table.hpp"
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

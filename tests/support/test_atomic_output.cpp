// support/atomic_output: a run's files replace the earlier ones all together or not at all.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/atomic_output.hpp"

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path fresh_dir() {
  const fs::path dir = fs::temp_directory_path() / ("fem-atomic-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("a commit replaces every file, or puts the earlier ones back when one cannot be moved into place") {
  const fs::path dir = fresh_dir();
  {
    fem::AtomicOutput first(dir);
    first.stage_text("box.vtu", "old fields");
    first.stage_text("box-view.py", "old script");
    REQUIRE(first.commit().size() == 2);
  }
  // The second run's summary cannot go where a (non-empty) folder stands: its fields and script
  // must not be left replaced beside the old summary.
  fs::create_directories(dir / "box.json" / "inside");
  {
    fem::AtomicOutput second(dir);
    second.stage_text("box.vtu", "new fields");
    second.stage_text("box-view.py", "new script");
    second.stage_text("new.txt", "a file the first run did not write");
    second.stage_text("box.json", "new summary");
    CHECK_THROWS_WITH(second.commit(), doctest::Contains("left as they were"));
  }
  CHECK(read(dir / "box.vtu") == "old fields");
  CHECK(read(dir / "box-view.py") == "old script");
  CHECK_FALSE(fs::exists(dir / "new.txt"));
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    CHECK(entry.path().filename().string().find("partial") == std::string::npos);
    CHECK(entry.path().filename().string().find("previous") == std::string::npos);
    ++entries;
  }
  CHECK(entries == 3);  // box.vtu, box-view.py and the folder

  // Once the way is clear, the same files replace the old ones together.
  fs::remove_all(dir / "box.json");
  fem::AtomicOutput third(dir);
  third.stage_text("box.vtu", "new fields");
  third.stage_text("box.json", "new summary");
  CHECK(third.commit().size() == 2);
  CHECK(read(dir / "box.vtu") == "new fields");
  CHECK(read(dir / "box.json") == "new summary");
  fs::remove_all(dir);
}

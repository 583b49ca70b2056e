#pragma once
// What the app tests share: a scratch directory per test, reading a file whole, and the
// cantilever case.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fem::test {

// A fresh directory per test, removed afterwards.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("fem-test-" + std::to_string(std::rand()) + "-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A case file: a steel box (`box`: its size and divisions) fixed at xmin and pulled down at xmax
// by `traction` Pa; `solver` holds the solver block's lines ("  method: cg\n").
inline std::string cantilever_case(const std::string& title, const std::string& box, const std::string& traction,
                                   const std::string& solver) {
  return "title: " + title + R"(
mesh:
  box: )" + box + R"(
  element: hex
physics:
  type: elasticity
  model: 3d
materials:
  - {group: box, E: 200e9, nu: 0.3}
boundary:
  - {group: xmin, fix: all}
  - {group: xmax, traction: [0, 0, )" + traction + R"(]}
solver:
)" + solver;
}

}  // namespace fem::test

// The hostile-input catalogue run through the real `fem` binary: every bad input exits with its
// code (1; 2 for command-line usage errors), its message names the culprit, and results of an
// earlier run (and an earlier benchmark CSV) are left exactly as they were, and nothing else is written.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "fem/config.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/hostile/bad_input_catalogue.hpp"

using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code;  // the exit status, or 128 + the signal that ended it
  std::string output;
};

Outcome run_fem(const fs::path& dir, const std::string& arguments, const std::string& limits = "") {
  const std::string command =
      "cd '" + dir.string() + "' && " + limits + "timeout 120 " + FEM_EXECUTABLE + " " + arguments + " >output.txt 2>&1";
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return {code, slurp(dir / "output.txt")};
}

// What a run before the bad one left: results and a benchmark CSV that must stay as they are.
const std::set<std::string> kEarlier = {"results/case.json", "results/case.vtu", "spmv.csv"};
const std::string kEarlierText = "earlier results\n";

void write_inputs(const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  for (const auto& [name, text] : files) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << text;
  }
}

// Every file under `dir`, relative to it: a bad input writes nothing there but its output.
std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (!entry.is_directory()) files.insert(entry.path().lexically_relative(dir).string());
  return files;
}

// What a bad input's folder holds when it has run: its files, the earlier results, its output.
std::set<std::string> files_before(const fem::test::BadInput& bad) {
  std::set<std::string> files = kEarlier;
  for (const auto& [name, text] : bad.files) files.insert(name);
  files.insert("output.txt");
  return files;
}

std::string fem_msh_text() { return slurp(fs::path(FEM_TEST_DATA_DIR) / "meshes" / "square_tri.msh"); }

}  // namespace

TEST_CASE("the good inputs the catalogue mutates run") {
  for (const auto& good : fem::test::good_inputs(fem_msh_text())) {
    CAPTURE(good.name);
    TempDir dir;
    write_inputs(dir.path, good.files);
    const Outcome outcome = run_fem(dir.path, good.arguments);
    CAPTURE(outcome.output);
    CHECK(outcome.code == 0);
  }
}

TEST_CASE("every bad input exits with its code, names its culprit, leaves earlier results alone and writes nothing else") {
  const auto catalogue = fem::test::bad_inputs(fem_msh_text());
  MESSAGE("bad inputs in the catalogue: " << catalogue.size());
  CHECK(catalogue.size() >= (FEM_WITH_GMSH ? 150u : 100u));
  for (const auto& bad : catalogue) {
    CAPTURE(bad.name);
    CAPTURE(bad.arguments);
    TempDir dir;
    write_inputs(dir.path, bad.files);
    for (const auto& name : kEarlier) write_inputs(dir.path, {{name, kEarlierText}});
    const Outcome outcome = run_fem(dir.path, bad.arguments);
    CAPTURE(outcome.output);
    CHECK(outcome.code == bad.exit_code);
    for (const auto& word : bad.culprit) CHECK_MESSAGE(outcome.output.find(word) != std::string::npos, "missing: " << word);
    for (const auto& name : kEarlier) CHECK(slurp(dir.path / name) == kEarlierText);
    std::set<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir.path / "results")) left.insert("results/" + entry.path().filename().string());
    CHECK(left == std::set<std::string>{"results/case.json", "results/case.vtu"});
    CHECK(files_under(dir.path) == files_before(bad));
  }
}

TEST_CASE("the file-size limit reached while writing: exit 1 saying so, earlier results whole, no temporaries") {
  // The base case at 60 x 60 cells: its .vtu and its matrix (--export-matrix, written in builds
  // without VTK too) are each several times the 400 blocks of 512 bytes (dash's unit).
  auto files = fem::test::good_inputs(fem_msh_text()).front().files;
  const auto at = files[0].second.find("divisions: [4, 4]");
  REQUIRE(at != std::string::npos);
  files[0].second.replace(at, 17, "divisions: [60, 60]");
  TempDir dir;
  write_inputs(dir.path, files);
  for (const auto& name : kEarlier) write_inputs(dir.path, {{name, kEarlierText}});
  const Outcome outcome = run_fem(dir.path, "run case.yaml --export-matrix", "ulimit -f 400 && ");
  CAPTURE(outcome.output);
  CHECK(outcome.code == 1);
  CHECK(outcome.output.find("file-size limit") != std::string::npos);
  for (const auto& name : kEarlier) CHECK(slurp(dir.path / name) == kEarlierText);
  std::set<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir.path / "results")) left.insert("results/" + entry.path().filename().string());
  CHECK(left == std::set<std::string>{"results/case.json", "results/case.vtu"});
}

#if FEM_WITH_PETSC
TEST_CASE("a .petscrc where fem runs is not read: it cannot write files or crash fem through PETSc") {
  // PETSc reads ./.petscrc when it starts: a folder sent with the case could hold one.
  // An options file that is not there: PETSc fails to start if it reads the .petscrc (an endless
  // one, /dev/zero, crashed fem once).
  for (const std::string options : {"-log_view ascii:escaped.txt", "-options_file no_such_options_file"}) {
    CAPTURE(options);
    auto files = fem::test::good_inputs(fem_msh_text()).front().files;
    files.emplace_back(".petscrc", options + "\n");
    TempDir dir;
    write_inputs(dir.path, files);
    const Outcome outcome = run_fem(dir.path, "run case.yaml --solver petsc --quiet");
    CAPTURE(outcome.output);
    CHECK(outcome.code == 0);
    CHECK_FALSE(fs::exists(dir.path / "escaped.txt"));
    CHECK(fs::exists(dir.path / "results" / "case.json"));
  }
}
#endif

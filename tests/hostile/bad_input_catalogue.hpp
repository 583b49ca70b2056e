#pragma once
// The catalogue of bad inputs the hostile-input test runs through the real `fem` binary: case
// files, meshes, Matrix Market files and command lines, each made by mutating a good input
// from a table, with the exit code and the words its message must hold (the culprit).
#include <string>
#include <utility>
#include <vector>

namespace fem::test {

struct BadInput {
  std::string name;                                        // what is wrong, for the test's report
  std::vector<std::pair<std::string, std::string>> files;  // written into a fresh folder first
  std::string arguments;                                   // of `fem`, run in that folder
  std::vector<std::string> culprit;                        // each must appear in the output
  int exit_code = 1;                                       // 2: a usage error of the command line
};

// The good inputs the catalogue mutates; each must run (exit 0) for the catalogue to mean much.
struct GoodInput {
  std::string name;
  std::vector<std::pair<std::string, std::string>> files;
  std::string arguments;
};

// `msh_text`: a Gmsh MSH 4.1 mesh of the unit square with groups square, left, right, top, bottom.
std::vector<GoodInput> good_inputs(const std::string& msh_text);
std::vector<BadInput> bad_inputs(const std::string& msh_text);

}  // namespace fem::test

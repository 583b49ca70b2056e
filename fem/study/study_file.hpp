#pragma once
// The study file of `fem sweep` (YAML): a case, the solvers, a list of mesh sizes, repeats and a
// budget. Validated like a case file: every problem is a CaseError "file:line: message".
#include <filesystem>
#include <string>
#include <vector>

#include "fem/pipeline/run_overrides.hpp"
#include "fem/study/comparison.hpp"

namespace fem::study {

// One mesh size: box divisions (box cases) or a target element size (geo cases).
struct StudySize {
  std::string label;            // "40x8x8" or "h=0.05"
  std::vector<int> divisions;   // box
  double element_size = 0;      // geo
  double smallness = 0;         // orders the sizes from small to large problems
};

struct StudyFile {
  std::filesystem::path file;
  std::string name;                  // the file's stem
  std::string title;
  std::filesystem::path case_file;   // absolute
  RunOverrides solver;               // the study's 'solver' section: overrides of the case's settings
  CompareSettings settings;
  std::vector<StudySize> sizes;      // sorted from small to large
  std::filesystem::path output;      // absolute
};

StudyFile load_study(const std::filesystem::path& file);

}  // namespace fem::study

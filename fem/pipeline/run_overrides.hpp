#pragma once
// What the command line changes in a case: the values it replaces, checked as the case file's
// own are, and the run's own switches (quiet, progress, matrix export).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fem/case/case.hpp"

namespace fem {

// Command-line values that replace the case file's.
struct RunOverrides {
  std::optional<std::string> method, device, renumber, preconditioner, precision;
  std::optional<double> tolerance;
  std::optional<std::filesystem::path> output_directory;
  std::vector<std::string> settings;  // --set key.path=value, applied to the file before it is read
  bool quiet = false;                 // --quiet: no progress lines during long phases
  double progress_interval_s = 2;     // --progress-interval: at most one progress line this often
  bool export_matrix = false;         // --export-matrix: <case>-K.mtx and <case>-f.mtx beside the results
};

// Applies overrides, checking their values as the case file's own are checked.
void apply_overrides(Case& c, const RunOverrides& overrides);

// The case as the command line sees it: the file with --set applied, then the other overrides.
Case load_case_with(const std::filesystem::path& case_file, const RunOverrides& overrides);

}  // namespace fem

#pragma once
// `fem run`: the whole pipeline from a case file to results on disk.
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"

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

// The mesh a case describes: a Gmsh .geo or .msh, or the built-in box.
Mesh make_mesh(const MeshSpec& spec);

// Runs the case, printing one line per phase and a summary table to `log`; returns the JSON
// summary that was written. Throws with a message naming the file, line, group or equation at
// fault; results of earlier runs are left untouched then.
nlohmann::json run_case(const std::filesystem::path& case_file, const RunOverrides& overrides, std::ostream& log);

}  // namespace fem

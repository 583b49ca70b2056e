#pragma once
// The study's pictures, drawn by scripts/plot_study.py (python3 + matplotlib) from
// compare.json: time per phase for every combination (bars), and for sweeps time and memory
// against dofs on log-log axes with the fitted slopes.
#include <filesystem>
#include <string>
#include <vector>

namespace fem::study {

struct Plot {
  std::string file;     // PNG name, in `directory`
  std::string caption;
};

struct Plots {
  std::vector<Plot> drawn;
  std::string matplotlib_version;
  std::string problem;  // why none were drawn (no python3 with matplotlib, the script failed)
};

// Draws into `directory` (which must exist). Never throws: a study that ran for an hour keeps
// its tables when a picture cannot be drawn, and the report says why.
Plots draw_study_plots(const std::filesystem::path& compare_json, const std::filesystem::path& directory);

}  // namespace fem::study

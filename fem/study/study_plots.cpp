#include "fem/study/study_plots.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "fem/output/external_command.hpp"

namespace fem::study {

Plots draw_study_plots(const std::filesystem::path& compare_json, const std::filesystem::path& directory) {
  Plots plots;
  try {
    const std::filesystem::path script = FEM_PLOT_STUDY_SCRIPT;
    if (!std::filesystem::exists(script)) throw std::runtime_error("the plotting script " + script.string() + " is missing");
    const std::string python = python_with_module("matplotlib", "study plots", "python3-matplotlib");
    run_command(shell_quoted(python) + " " + shell_quoted(script.string()) + " " + shell_quoted(compare_json.string()) + " " +
                    shell_quoted(directory.string()),
                script.string());
    // The script lists what it drew in plots.json: [{"file": ..., "caption": ...}], and its matplotlib.
    std::ifstream in(directory / "plots.json");
    const auto manifest = nlohmann::json::parse(in);
    for (const auto& p : manifest.at("plots")) plots.drawn.push_back({p.at("file"), p.at("caption")});
    plots.matplotlib_version = manifest.value("matplotlib", "");
  } catch (const std::exception& e) {
    plots.problem = e.what();
  }
  return plots;
}

}  // namespace fem::study

#include "fem/app/render_command.hpp"

#include <cstdlib>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "support/atomic_output.hpp"
#include "fem/output/external_command.hpp"
#include "fem/output/scratch_directory.hpp"

namespace fem {
namespace {

namespace fs = std::filesystem;

// Where Debian's python3-paraview modules are, when they are not in the system's Python path:
// python3-paraview conflicts with libvtk9-dev (which fem builds against), so
// scripts/install-deps.sh unpacks it beside the system instead (FEM_PARAVIEW_PYTHONPATH overrides).
std::string paraview_python_path() {
  if (const char* chosen = std::getenv("FEM_PARAVIEW_PYTHONPATH")) return chosen;
  const fs::path unpacked = "/opt/fem-paraview/usr/lib/python3/dist-packages";
  return fs::is_directory(unpacked / "paraview") ? unpacked.string() : "";
}

// pvbatch renders without a GUI; pvpython (ParaView's own builds) does too.
std::string paraview_runner() {
  if (const char* chosen = std::getenv("FEM_PVBATCH")) return chosen;
  for (const char* program : {"pvbatch", "pvpython"})
    if (on_path(program)) return program;
  throw std::runtime_error(
      "fem render: neither pvbatch nor pvpython is on PATH (Debian: apt-get install paraview; see scripts/install-deps.sh)");
}

// Draws one view script to `png`.
void render_view(const fs::path& script, const fs::path& png, std::ostream& log) {
  std::string command;
  if (const std::string path = paraview_python_path(); !path.empty()) {
    const char* existing = std::getenv("PYTHONPATH");
    command += "PYTHONPATH=" + shell_quoted(path + (existing && *existing ? ":" + std::string(existing) : "")) + " ";
  }
  // Debian's ParaView renders through X: without a display, a virtual one from xvfb-run.
  const char* display = std::getenv("DISPLAY");
  const bool virtual_display = !(display && *display) && on_path("xvfb-run");
  // xvfb-run -a looks for a free display from :99 up; two renders started at once could both pick
  // the same one, so each process starts its search at a display of its own. pvbatch connects to
  // the display more than once, and a loaded Xvfb that resets between two connections refuses the
  // second ("bad X server connection"), hence -noreset.
  if (virtual_display) command += "xvfb-run -a -n " + std::to_string(100 + getpid() % 900) + " -s " + shell_quoted(kXvfbArguments) + " ";
  command += shell_quoted(paraview_runner());
  if (!virtual_display) command += " --force-offscreen-rendering";

  // ParaView picks the format from the name's extension: draw to a .png in a scratch folder,
  // then move it into place as a whole.
  const ScratchDirectory scratch_folder("fem-render");
  const fs::path& scratch = scratch_folder.path();
  const fs::path drawn = scratch / "view.png";
  log << "fem: render   " << script.string() << " with " << paraview_runner() << (virtual_display ? " (xvfb-run)" : "")
      << "\n" << std::flush;
  run_command(command + " " + shell_quoted(script.string()) + " --png " + shell_quoted(drawn.string()),
              "fem render: " + script.string());
  if (!fs::exists(drawn)) throw std::runtime_error("fem render: ParaView ended without writing " + drawn.string());
  AtomicOutput output(png.parent_path());
  fs::copy_file(drawn, output.stage(png.filename().string()));
  output.commit();
  log << "fem: render   wrote " << png.string() << "\n";
}

}  // namespace

std::vector<fs::path> render_case(const fs::path& case_file, const RunOverrides& overrides, const fs::path& png_wanted,
                                  std::ostream& log) {
  Case c = load_case_with(case_file, overrides);
  // One picture per load case where the case has them, each named after it.
  std::vector<std::string> suffixes;
  for (const auto& load_case : c.load_cases) suffixes.push_back("-" + load_case.name);
  if (suffixes.empty()) suffixes.push_back("");
  std::vector<fs::path> pngs;
  for (const auto& suffix : suffixes) {
    const std::string name = c.name + suffix;
    const fs::path script = c.output.directory / (name + "-view.py");
    const fs::path results = c.output.directory / (name + ".vtu");
    const fs::path parallel_results = c.output.directory / (name + ".pvtu");  // from fem run under mpirun
    if (!fs::exists(script) || !(fs::exists(results) || fs::exists(parallel_results)))
      throw std::runtime_error(script.string() + ": no view script or results here; run `fem run " + case_file.string() +
                               "` first (with the same --output)");
    if (png_wanted.empty()) {
      pngs.push_back(c.output.directory / (name + ".png"));
    } else {
      const fs::path wanted = fs::absolute(png_wanted);
      pngs.push_back(wanted.parent_path() / (wanted.stem().string() + suffix + wanted.extension().string()));
    }
  }
  for (std::size_t i = 0; i < pngs.size(); ++i)
    render_view(c.output.directory / (c.name + suffixes[i] + "-view.py"), pngs[i], log);
  return pngs;
}

}  // namespace fem

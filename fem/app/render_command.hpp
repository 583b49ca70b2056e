#pragma once
// `fem render`: the picture of a run's results, drawn offscreen by ParaView (pvbatch) from the
// view script `fem run` leaves beside them.
#include <filesystem>
#include <iosfwd>
#include <vector>

#include "fem/pipeline/run_overrides.hpp"

namespace fem {

// The virtual display's server options (xvfb-run -s): a 24-bit screen, and no server reset when a
// client disconnects (pvbatch reconnects, and a reset in between refuses it under load).
inline constexpr const char* kXvfbArguments = "-screen 0 1280x1024x24 -noreset";

// Renders DIR/<case>-view.py to `png` (default DIR/<case>.png, DIR the case's results
// directory), or with load cases each DIR/<case>-<name>-view.py to <png stem>-<name>.png
// (default DIR/<case>-<name>.png); returns the PNGs' paths. Throws naming what is missing: the results (run the case
// first), pvbatch/pvpython (Debian: paraview), ParaView's Python modules, a display (xvfb-run).
std::vector<std::filesystem::path> render_case(const std::filesystem::path& case_file, const RunOverrides& overrides,
                                               const std::filesystem::path& png, std::ostream& log);

}  // namespace fem

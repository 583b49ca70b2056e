#pragma once
// `fem run`: the composition root of a run. Picks where the stages run (one process, or the MPI
// ranks of a PETSc run) and where the fields go (VTK files, or the summary alone in a build
// without VTK), then runs the pipeline.
#include <filesystem>
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "fem/pipeline/run_overrides.hpp"

namespace fem {

// Runs the case file, printing one line per phase and a summary table to `log`; returns the JSON
// summary that was written. Throws with a message naming the file, line, group or equation at
// fault; results of earlier runs are left untouched then.
nlohmann::json run_case(const std::filesystem::path& case_file, const RunOverrides& overrides, std::ostream& log);

}  // namespace fem

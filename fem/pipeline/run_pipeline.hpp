#pragma once
// `fem run` as a short sequence of stages: mesh -> number -> assemble -> solve -> recover ->
// write. Each stage takes the typed output of the one before; the executor runs them where the
// data lives and the sink takes the fields. The composition root (fem/app/run_command) picks both.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/pipeline/run_overrides.hpp"

namespace fem {

// Runs the case `c` (overrides already applied; `overrides` gives the run's own switches),
// printing one line per phase and a summary table to `log` on the root process; returns the
// JSON summary that was written. Throws with a message naming the file, line, group or equation
// at fault; results of earlier runs are left untouched then.
nlohmann::json run_pipeline(const Case& c, const RunOverrides& overrides, Executor& executor, ResultSink& sink,
                            std::ostream& log);

}  // namespace fem

#pragma once
// The stages of `fem run` for `analysis: transient` (heat) after the mesh is numbered: assemble
// K, C and f, step with the theta-method on one preparation of the solver, and write the time
// series (<case>.pvd listing <case>_<step>.vtu with temperature and heat_flux) and the JSON
// summary (times, each written step's temperature range and heat budget, set-up and step times).
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/pipeline/analysis_inputs.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/pipeline/phase_log.hpp"
#include "fem/pipeline/run_overrides.hpp"
#include "fem/renumber/node_graph.hpp"

namespace fem {

// Runs the transient stages, printing the phases and a line per written step to `log`; returns
// the summary written. Throws CaseError for what they cannot take (the frontal method, several
// MPI ranks) and SolveFailure when a step's answer is not usable; nothing is written then.
nlohmann::json run_transient(const AnalysisInputs& in, Executor& executor, ResultSink& sink, PhaseLog& phases,
                             std::ostream& log);

}  // namespace fem

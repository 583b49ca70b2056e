#pragma once
// The stages of `fem run` for `analysis: modal` after the mesh is numbered: assemble K and M,
// solve for the modes, write them (point data mode_1 ... mode_N, the JSON summary with
// frequencies_hz, eigenvalues, mode_residuals, participation factors and effective masses).
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

// Runs the modal stages, printing the phases and a table of the modes to `log`; returns the
// summary written. Under mpirun (analysis.method: slepc) every process solves its share and
// holds the whole answer, and the root writes it. Throws CaseError for a case the modal stages
// cannot take (a frontal solver, several MPI ranks with another method), eigen::EigenFailure or SolveFailure when the modes are not found to the
// accepted residual; earlier results are left untouched then.
nlohmann::json run_modal(const AnalysisInputs& in, Executor& executor, ResultSink& sink, PhaseLog& phases,
                         std::ostream& log);

}  // namespace fem

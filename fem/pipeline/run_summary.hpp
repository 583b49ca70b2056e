#pragma once
// The summary of a run: the JSON written beside the results (DESIGN.md's contract) and the
// table printed at the end, both from the stages' typed outputs.
#include <cstdint>
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"
#include "fem/physics/problem.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/post/nodal_results.hpp"

namespace fem {

struct RunRecord {
  const Case& run_case;
  const Mesh& mesh;
  const Problem& problem;
  const NodeOrdering& ordering;
  std::int64_t dofs = 0, nnz = 0;
  const SolveOutcome& solve;
  const NodalResults& results;
};

// What every analysis reports first: the case, the mesh, the numbering and the solver settings.
nlohmann::json summary_head(const Case& c, const Mesh& mesh, const Problem& problem, const NodeOrdering& ordering,
                            std::int64_t dofs, std::int64_t nnz);

// Everything but the times and memory, which the write stage adds last.
nlohmann::json run_summary(const RunRecord& record);

// "cache", "timed" or "model": where a GPU's SpMV setting came from (the tuning cache, timing, or
// the model alone).
std::string spmv_tuning_source(const SolveReport& report);

// The closing table: equations, bandwidth, solver, residual, the answer's extremes, time and memory.
void print_run_summary(std::ostream& log, const nlohmann::json& summary, const std::string& results_directory);

}  // namespace fem

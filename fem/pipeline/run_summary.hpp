#pragma once
// The summary of a run: the JSON written beside the results (DESIGN.md's contract) and the
// table printed at the end, both from the stages' typed outputs.
#include <array>
#include <cstdint>
#include <map>
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

// The solve's figures: iterations, residual, the verdict, the solver's own figures and times.
void add_solve_summary(nlohmann::json& summary, const SolveOutcome& solve);

// `reactions`: per group its force (dofs_per_node components) or heat flow.
nlohmann::json group_reactions_summary(const std::map<std::string, std::array<double, 3>>& group_reactions,
                                       int dofs_per_node);

// Everything but the times and memory, which the write stage adds last.
nlohmann::json run_summary(const RunRecord& record);

// "cache", "timed" or "model": where a GPU's SpMV setting came from (the tuning cache, timing, or
// the model alone).
std::string spmv_tuning_source(const SolveReport& report);

// The solve phase's line: method, device, AMG levels, times, iterations, residual and verdict.
std::string describe_solve(const SolverOptions& options, const SolveOutcome& outcome);

// The closing table: equations, bandwidth, solver, residual, the answer's extremes, time and memory.
void print_run_summary(std::ostream& log, const nlohmann::json& summary, const std::string& results_directory);

}  // namespace fem

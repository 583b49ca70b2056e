#pragma once
// The run summary of a case solved on box blocks (fem/parallel/block_system.hpp), put together by
// MPI reductions from every rank's owned nodes and own cells: the same keys as one process's
// summary for the sizes, the solve, the reactions, the applied loads and their balance, and the
// extremes (their node numbered in the box's plane-by-plane order). Collective: every rank gets
// the whole summary.
#include <string>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/mesh/box_part.hpp"
#include "fem/parallel/block_system.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/post/nodal_results.hpp"

namespace fem {

struct BlockRecord {
  const Case& run_case;
  const BoxPart& part;
  const Problem& problem;
  const BlockSystem& system;
  const SolveOutcome& solve;
  const NodalResults& results;  // complete at the ghosts too
};

nlohmann::json block_summary(const BlockRecord& record);

}  // namespace fem

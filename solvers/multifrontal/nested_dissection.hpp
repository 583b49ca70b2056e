#pragma once
// The fill-reducing ordering: nested dissection of the node graph by METIS. The top levels of
// separators (METIS_ComputeVertexSeparator) are found in parallel, one OpenMP task per side, down
// to two parts per thread, which METIS_NodeND orders, each in its own task; on one thread that is
// one METIS_NodeND call. Debian's METIS keeps its per-call state in thread-local storage but
// draws its random numbers from the C library's one generator, so on several threads the calls'
// draws interleave: the order, and the fill with it, vary by a fraction of a percent from run to
// run (the solution by rounding).
#include <cstdint>
#include <string>
#include <vector>

#include "solvers/multifrontal/node_blocks.hpp"

namespace fem::multifrontal {

// new_of_old of the nodes: separators last, recursively.
std::vector<std::int32_t> nested_dissection(const BlockGraph& graph);

// "5.1.0": the METIS this build orders with, for reports.
std::string metis_version();

}  // namespace fem::multifrontal

#pragma once
// The fill-reducing ordering: nested dissection of the node graph by METIS (METIS_NodeND).
#include <cstdint>
#include <vector>

#include "solvers/multifrontal/node_blocks.hpp"

namespace fem::multifrontal {

// new_of_old of the nodes: separators last, recursively.
std::vector<std::int32_t> nested_dissection(const BlockGraph& graph);

}  // namespace fem::multifrontal

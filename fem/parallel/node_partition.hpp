#pragma once
// The nodes split among the MPI ranks.
#include <vector>

#include "fem/renumber/node_graph.hpp"

namespace fem {

// The part (0..parts-1) of every node: METIS's k-way partition of the node graph, which balances
// the nodes (so the equations) and cuts few edges (so little talk between ranks). METIS rather
// than PETSc's MatPartitioning: every rank holds the whole mesh already, the serial graph is at
// hand before any distributed matrix exists, and Debian's PETSc has no ParMETIS. Deterministic;
// throws std::runtime_error when METIS fails.
std::vector<int> partition_nodes(const renumber::NodeGraph& graph, int parts);

}  // namespace fem

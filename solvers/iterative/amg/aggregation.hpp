#pragma once
// Strength of connection and aggregation on the node (block) graph of one level: the nodes are
// grouped into small connected aggregates, each of which becomes one coarse node.
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"

namespace fem::amg {

struct Aggregates {
  std::int64_t count = 0;
  std::vector<std::int32_t> of_node;  // the aggregate of each node; -1: isolated (no strong
                                      // neighbour, e.g. fully fixed), left to the smoother
};

// Nodes i and j are strongly connected when ||A_ij|| >= threshold sqrt(||A_ii|| ||A_jj||) > 0
// (Frobenius norms of the blocks): a cleared Dirichlet block is never strong. Greedy standard
// aggregation: (1) a node whose strong neighbours are all free seeds an aggregate with them;
// (2) a node left over joins the aggregate of its strongest aggregated neighbour; (3) what is
// still left forms aggregates with its free strong neighbours.
// `squared_norms`: each block's squared_norm() where known (to_block_sparse() makes them), else empty.
// `found`: where a device has tested A's blocks (its strong blocks and its join of the nodes left
// over, kernels::LevelValues); A's values are not read then. The host tests them where it is null.
Aggregates aggregate(const BlockSparse& a, double threshold, std::span<const double> squared_norms = {},
                     const kernels::LevelValues* found = nullptr);

}  // namespace fem::amg

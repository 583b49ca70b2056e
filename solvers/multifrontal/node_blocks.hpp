#pragma once
// The matrix's pattern seen node by node: equations come in blocks of `block` consecutive rows
// (a node's dofs), and the ordering and the symbolic analysis work on the graph of those blocks,
// `block`² times smaller than the matrix's own, then expand to equations.
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::multifrontal {

// Symmetric adjacency of the blocks, without self loops, neighbours sorted.
struct BlockGraph {
  int block = 1;                          // equations per block
  std::int32_t nodes = 0;
  std::vector<std::int64_t> offset{0};    // size nodes + 1
  std::vector<std::int32_t> neighbour;

  std::span<const std::int32_t> neighbours(std::int32_t node) const {
    return {neighbour.data() + offset[node], neighbour.data() + offset[node + 1]};
  }
};

// The block size to use: `given` when it is above 1 and divides the rows (a NodeLayout from the
// caller), else the largest of 3 and 2 whose blocks look like nodes (every row of a block that
// couples to anything couples to the same blocks), else 1.
int choose_block_size(const CsrMatrix& matrix, int given);

// The union of the block rows' patterns; matrix.rows must be a multiple of block.
BlockGraph block_graph(const CsrMatrix& matrix, int block);

// The same graph with node v renamed new_of_old[v], neighbours sorted again.
BlockGraph renumbered(const BlockGraph& graph, std::span<const std::int32_t> new_of_old);

}  // namespace fem::multifrontal

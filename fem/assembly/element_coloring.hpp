#pragma once
// Element colouring: groups of elements that share no node, so that threads can add into
// node-indexed arrays (matrix rows, nodal sums) without races.
#include <cstddef>
#include <span>
#include <vector>

#include "fem/mesh/mesh.hpp"

namespace fem {

// Elements grouped so that no two elements of a group share a node (greedy, in mesh order).
std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::size_t num_nodes);

// Runs of consecutive elements (blocks), coloured so that no two blocks of a colour share a
// node. A thread takes a whole block, element after element: neighbouring elements add into
// the same rows, which then stay in its cache, where one colour per element would sweep the
// whole array once per colour.
struct ElementBlocks {
  std::vector<std::size_t> element;              // the elements, in the order given
  std::size_t block_size = 1;                    // block b: element[b * block_size, ...), at most block_size
  std::vector<std::vector<std::size_t>> colors;  // the blocks of each colour, ascending
  std::span<const std::size_t> block(std::size_t b) const;
};

// `which`: the elements to colour, in this order (empty: all, in mesh order). The block size
// follows the number of elements only (the same sums whatever the thread count); where the
// numbering is not local enough to leave many blocks a colour, blocks are single elements.
ElementBlocks color_element_blocks(const ElementSet& cells, std::span<const std::size_t> which, std::size_t num_nodes);

}  // namespace fem

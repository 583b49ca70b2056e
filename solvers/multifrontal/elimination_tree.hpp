#pragma once
// The elimination tree of a symmetric pattern (Liu): parent[j] is the first row below j in
// column j of the Cholesky factor; its postorder, which makes every subtree (and so every
// supernode) a contiguous range; and the factor's column counts, all without computing L.
#include <cstdint>
#include <vector>

#include "solvers/multifrontal/node_blocks.hpp"

namespace fem::multifrontal {

// parent[j], or -1 for a root.
std::vector<std::int32_t> elimination_tree(const BlockGraph& graph);

// new_of_old of a postorder of the forest (children before parents, subtrees contiguous).
std::vector<std::int32_t> postorder(const std::vector<std::int32_t>& parent);

// Entries of each column of L, the diagonal included; the graph must be postordered with
// `parent` its elimination tree. Walks each row's subtree once: time of the order of nnz(L).
std::vector<std::int64_t> column_counts(const BlockGraph& graph, const std::vector<std::int32_t>& parent);

}  // namespace fem::multifrontal

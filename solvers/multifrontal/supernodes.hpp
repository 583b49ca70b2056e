#pragma once
// Supernodes: runs of consecutive columns of L with the same structure below their diagonal
// block, eliminated together as one dense front. Fundamental supernodes are merged further with
// their parent when the explicit zeros that adds stay few (relaxed amalgamation, with CHOLMOD's
// default thresholds): fewer, larger fronts make better use of BLAS-3.
#include <cstdint>
#include <vector>

namespace fem::multifrontal {

struct SupernodePartition {
  std::vector<std::int32_t> first;    // first column of each supernode, and the column count at the end
  std::vector<std::int32_t> parent;   // supernode parent, -1 for a root
};

// Over a postordered elimination tree (`parent`) with its column counts (`count`, in nodes);
// `block` equations per node weigh the zeros as the factor will store them.
SupernodePartition find_supernodes(const std::vector<std::int32_t>& parent, const std::vector<std::int64_t>& count,
                                   int block);

}  // namespace fem::multifrontal

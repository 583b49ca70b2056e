#pragma once
// How the supernode tree is shared among threads: independent subtrees, each factorised by one
// thread with one-thread BLAS, heaviest first; then the supernodes above them (the large
// separator fronts near the root) one at a time with every thread inside BLAS. The subtrees are
// split from the roots down until none holds more than a share of the work (Geist and Ng).
// Supernodes left to a device (a set closed towards the roots) are never in a subtree: they are
// listed apart, and the host's subtrees and top are what lies below them.
#include <cstdint>
#include <vector>

namespace fem::multifrontal {

struct TreeSchedule {
  // Subtree t is the supernodes subtree_first[t] .. subtree_root[t] (postorder keeps it contiguous).
  std::vector<std::int32_t> subtree_first, subtree_root;
  std::vector<std::int32_t> top;  // the rest on the host, in postorder
  std::vector<std::int32_t> device;  // those left to the device, in postorder
};

// `parent` of each supernode (postordered), `work` its own flops; on_device[s] != 0 (when given)
// for those the device factorises, every ancestor of one of them among them.
TreeSchedule schedule_tree(const std::vector<std::int32_t>& parent, const std::vector<double>& work, int threads,
                           const std::vector<char>& on_device = {});

}  // namespace fem::multifrontal

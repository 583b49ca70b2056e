#pragma once
// Everything about the factorisation that the pattern decides, computed before any numeric
// allocation: the fill-reducing ordering (nested dissection of the node graph, postordered),
// the supernodes and their fronts' rows, the factor's size, the flops, the schedule of the tree
// over the threads and the memory the numeric factorisation will take.
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "solvers/multifrontal/node_blocks.hpp"
#include "solvers/multifrontal/tree_schedule.hpp"

namespace fem::multifrontal {

struct SymbolicFactor {
  std::int64_t equations = 0;
  int block = 1;                              // equations per node
  int threads = 1;
  std::vector<std::int32_t> new_of_old, old_of_new;  // the equations' elimination order

  // Supernode s eliminates the equations first[s] .. first[s + 1] - 1 (new numbering). Its front
  // has the rows rows[row_offset[s] ..] (ascending: its own equations, then those it updates);
  // its factor panel (front rows x own equations, row-major) starts at panel_offset[s].
  std::vector<std::int32_t> first;
  std::vector<std::int32_t> parent;           // supernode parent, -1 for a root
  std::vector<std::int64_t> row_offset;
  std::vector<std::int32_t> rows;
  std::vector<std::int64_t> panel_offset;
  std::vector<char> on_device;                // per supernode: in schedule.device
  TreeSchedule schedule;

  double flops = 0;                           // of the factorisation: the sum over columns of their count squared
  double device_flops = 0;                    // of the supernodes in schedule.device
  std::int64_t front_max = 0;
  // Update matrices: inside a subtree they live on its thread's stack, each moved down over its
  // children's once they are added in; a subtree root's update (it waits for the top of the
  // tree) and those above the subtrees are arrays of their own. stack_entries is the deepest subtree's stack (one stack per
  // thread), update_peak_entries the most entries held at once, stacks included.
  std::int64_t stack_entries = 0;
  std::int64_t update_peak_entries = 0;
  double time_order_s = 0, time_symbolic_s = 0;

  std::int32_t supernodes() const { return static_cast<std::int32_t>(parent.size()); }
  std::int64_t columns(std::int32_t s) const { return first[s + 1] - first[s]; }
  std::int64_t front(std::int32_t s) const { return row_offset[s + 1] - row_offset[s]; }
  std::int64_t update_entries(std::int32_t s) const { return (front(s) - columns(s)) * (front(s) - columns(s)); }
  std::int64_t factor_entries() const { return panel_offset.back(); }
  double flops_of(std::int32_t s) const;  // supernode s's share of `flops`

  // The factor with its indices, with entries of `value_bytes` each.
  std::size_t factor_bytes(std::size_t value_bytes) const;
  // What the numeric factorisation will hold at its peak: the factor, the update matrices alive
  // at once, and one row map per thread.
  std::size_t estimate_bytes(std::size_t value_bytes) const;
  // Bytes of the row maps (one per thread), part of both the estimate and the measurement.
  std::size_t workspace_bytes() const;
};

// `block`: equations per node from the caller (1 when unknown: then guessed from the matrix).
// Supernodes of at least `device_min_flops` flops, and every supernode above one of them, are
// left to a device (schedule.device); the host's schedule and memory plan cover the rest.
SymbolicFactor analyse(const CsrMatrix& matrix, int block, int threads,
                       double device_min_flops = std::numeric_limits<double>::infinity());
// The same from the matrix's node graph (graph.block equations per node, every node block dense).
SymbolicFactor analyse(const BlockGraph& graph, int threads,
                       double device_min_flops = std::numeric_limits<double>::infinity());

}  // namespace fem::multifrontal

#pragma once
// Where a step of the CUDA band factorisation spends its time: each operation of one step at
// half-bandwidth b and block nb, timed alone with CUDA events (many calls back to back on one
// stream, so launch gaps count as they do in the factorisation). Double precision.
#include <cstdint>
#include <string>
#include <vector>

namespace fem::bench {

struct StepBreakdown {
  double first_kernel_us = 0;  // the block column kernel on the step's first 64 columns
  double panel_us = 0;         // the step's block column kernels, after the look-ahead SYRK + GEMM
                               // for blocks wider than one kernel (panel stream)
  double trailing_us = 0;      // the SYRK of the rest of the window (update stream)
  // The panel's updates of 64 columns by cuBLAS SYRK + GEMM, and the trailing SYRK on part of the
  // device:
  double next_update_us = 0;  // a kernel's 64 columns applied to the next 64, all rows
  double look_ahead_us = 0;   // the block column applied to the next one's first 64
  double look_ahead_rest_us = 0;  // ... and to its other columns (cuBLAS, the side stream's, beside the first kernel)
  double trailing_green_us = 0;   // the trailing SYRK in a green context of all but 32 multiprocessors
  // right_looking_solve's kernels: the block column kernel solving only the next diagonal block's
  // rows, and solve_under_diagonal solving the others and updating the next 64 columns.
  double thin_kernel_us = 0, solve_us = 0;
};

StepBreakdown time_step_parts(std::int64_t bandwidth, std::int64_t block);

// The trailing update of a step alone, C := C - X Xᵀ on the lower triangle of n = b - nb rows, X
// n x nb, as the band holds them, by cuBLAS DSYRK and DSYRKX, beside a DGEMM of the whole square
// (for the rate cuBLAS reaches on the shape: twice the flops), on the whole device or (spare_sms
// > 0) in a green context keeping that many out.
struct UpdateRate {
  std::string variant;
  int spare_sms = 0;
  double us = 0;
  double tflops = 0;  // n (n + 1) nb flops a call (the square: 2 n² nb)
};

std::vector<UpdateRate> time_update_variants(std::int64_t bandwidth, std::int64_t block, const std::vector<int>& spare_sms);

// The persistent kernel's critical path: per 64-column step, medians over the steps of a band
// of 600 steps (its first and last reach steps left out), from the kernel's own time stamps. A
// step is the first strip of a block column (it applies the block column before, factors the
// diagonal block, solves its rows), then the wait for the next block column's first strip to
// see all it needs. The block column before arrives in two halves of 32 columns: the first
// while that block column factors its second slab, the second when it ends.
struct PersistentStepBreakdown {
  double step_us = 0;          // from one step's first strip ready (first half) to the next one's
  double strip_waited_us = 0;  // that strip's task, from its ticket until it is ready: the wait off the path
  double counts_late_us = 0;   // its update counts met, after the previous step's strip ended (< 0: before):
                               // > 0 when the updates by the block column two back set the pace
  double strip_us = 0;         // the strip, ready to done
  double strip_loads_us = 0;   // the first half's loads
  double strip_left_update_us = 0;  // its left update of the first slab's columns
  double strip_second_wait_us = 0;  // then the wait for the second half
  double strip_second_half_us = 0;  // its loads and left update
  double strip_first_slab_us = 0, strip_first_update_us = 0, strip_second_slab_us = 0, strip_flag_us = 0;
  double first_chain_us = 0, second_chain_us = 0;  // each slab's pivot chain alone (its producer warp)
  double to_next_us = 0;            // its second half's flag until the next step's first strip has it
  double first_half_to_next_us = 0;  // its first half's flag until the next step's first strip has it
  double clock_ghz = 0;        // the strip's multiprocessor clock during its factorisation
  double update_tasks = 0;     // a step's update tasks
  double update_waited_us = 0, update_held_us = 0;  // an update task's wait for its inputs, and all its time
};

// With walkers = 2, a second band of the same shape is factored at the same time from another
// host thread, each on half the device's blocks (as the two-sided factorisation's walkers), and
// the first one's steps are timed.
PersistentStepBreakdown time_persistent_steps(std::int64_t bandwidth, int walkers = 1);

}  // namespace fem::bench

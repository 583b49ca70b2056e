#pragma once
// Where a step of the CUDA band factorisation spends its time: each operation of one step at
// half-bandwidth b and block nb, timed alone with CUDA events (many calls back to back on one
// stream, so launch gaps count as they do in the factorisation). Double precision.
#include <cstdint>

namespace fem::bench {

struct StepBreakdown {
  double first_kernel_us = 0;  // the block column kernel on the step's first 64 columns
  double panel_us = 0;         // the step's block column kernels, after the look-ahead SYRK + GEMM
                               // for blocks wider than one kernel (panel stream)
  double trailing_us = 0;      // the SYRK of the rest of the window (update stream)
};

StepBreakdown time_step_parts(std::int64_t bandwidth, std::int64_t block);

}  // namespace fem::bench

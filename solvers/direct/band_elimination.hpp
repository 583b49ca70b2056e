#pragma once
// The simpler direct methods the band Cholesky is compared with (the comparison study of the
// band-Cholesky paper): Gaussian elimination without pivoting on the full band (both
// triangles, 2 kd + 1 entries a row, twice Cholesky's flops) and LDLᵀ on the lower band (no
// square roots). Both go by blocks of columns on the host BLAS (TRSM for the panels, DSYRK or
// DGEMM for the trailing window), for SPD matrices: a pivot that is not positive stops with
// SolveFailure naming its equation. precision "mixed" factors in FP32 and refines in FP64
// (falling back to FP64 when that does not converge); progress reports the columns done.
//
// SolveReport.figures: bandwidth, block_size, factor_bytes, factor_precision_bits, flops,
// threads, refinement_steps, precision_fallback.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

std::unique_ptr<LinearSolver> make_band_gauss_cpu(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_band_ldlt_cpu(const SolverOptions& options);

}  // namespace fem

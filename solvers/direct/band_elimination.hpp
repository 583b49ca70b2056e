#pragma once
// The simpler direct methods the band Cholesky is compared with (the comparison study of the
// band-Cholesky paper): Gaussian elimination without pivoting on the full band (both
// triangles, 2 kd + 1 entries a row, twice Cholesky's flops) and LDLᵀ on the lower band (no
// square roots). Both are right-looking with the row updates of each step shared among OpenMP
// threads (a fork/join per step, as in the paper), for SPD matrices: a pivot that is not
// positive stops with SolveFailure naming its equation.
//
// SolveReport.figures: bandwidth, factor_bytes, flops, threads.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

std::unique_ptr<LinearSolver> make_band_gauss_cpu(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_band_ldlt_cpu(const SolverOptions& options);

}  // namespace fem

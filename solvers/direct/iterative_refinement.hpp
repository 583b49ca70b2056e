#pragma once
// Mixed precision for direct solvers: a factor in FP32, corrections solved with it, residuals
// in FP64, until the FP64 residual reaches the tolerance.
#include <functional>
#include <span>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

// r := b - A x; returns ||r|| / ||b|| (||r|| when b = 0).
double relative_residual(const CsrMatrix& a, std::span<const double> b, std::span<const double> x, std::vector<double>& r);

// x := 0, then x += correct(r) with r = b - A x until ||r|| / ||b|| <= options.tolerance (true),
// or until a step fails to halve the residual or 30 steps pass (false: the caller refactors in
// FP64). `correct` overwrites r with the correction. Each step goes to report.residual_history,
// figures["refinement_steps"] and options.progress.
bool refine(const CsrMatrix& a, std::span<const double> b, std::span<double> x,
            const std::function<void(std::vector<double>& r)>& correct, const SolverOptions& options, SolveReport& report);

}  // namespace fem

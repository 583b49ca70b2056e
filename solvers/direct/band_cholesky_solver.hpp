#pragma once
// `solver.method: band-cholesky`: the renumbered CSR matrix copied into band storage on a dense
// back-end (OpenMP on the CPU, cuBLAS-backed CUDA on the GPU), factored by the blocked band
// Cholesky, solved by substitution. With options.precision == "mixed" the band is factored in
// FP32 and the solution refined in FP64 against the CSR matrix to options.tolerance, falling
// back to FP64 when refinement stalls.
//
// SolveReport.figures: bandwidth, block_size, factor_bytes, flops (factorisation, counted
// exactly: about n (kd + 1)^2), threads, refinement_steps, precision_fallback (1 when the mixed
// solve fell back to FP64), factor_precision_bits (32 or 64).
#include <memory>
#include <span>
#include <vector>

#include "kernels/dense_backend.hpp"
#include "solvers/direct/band_cholesky.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

std::unique_ptr<LinearSolver> make_band_cholesky_cpu(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_band_cholesky_cuda(const SolverOptions& options);

}  // namespace fem

namespace fem::band {

// The lower band of `matrix` in `layout`, allocated on `backend` after checking that it fits
// (SolveFailure otherwise) and uploaded in chunks of rows, so the host never holds it whole.
template <class T>
BandOnBackend<T> load_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout);

// Solves with a factored band for the n x r right-hand sides `rhs` (row-major), returning X.
template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const BandOnBackend<T>& factor,
                                   std::span<const double> rhs, index_t r);

// Factors on the back-end; kernels::NotPositiveDefinite becomes SolveFailure naming the equation.
template <class T>
void factor_or_fail(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule);

}  // namespace fem::band

#pragma once
// `solver.method: band-cholesky`: the renumbered CSR matrix copied into band storage on a dense
// back-end (OpenMP on the CPU, cuBLAS-backed CUDA on the GPU), factored by the blocked band
// Cholesky, solved by substitution (prepare(): factored once, any number of right-hand sides,
// several at a time in one block substitution). With options.precision == "mixed" the band is factored in
// FP32 and the solution refined in FP64 against the CSR matrix to options.tolerance, falling
// back to FP64 when refinement stalls.
//
// On the CPU the tiles run on OpenBLAS (the dense back-end "blas") under OpenMP tasks. On CUDA the
// band is factored at its half-bandwidth rounded up to 8 (band::device_bandwidth: the kernels'
// shapes aligned) on the device by its direct kernels (direct_kernels.hpp) and substituted there:
// in FP64 on narrow bands (below kPersistentBelow, kTwistedPersistentBelow two-sided) by the
// persistent kernels, else by the chain of our block column kernel and cuBLAS; two-sided
// (twisted_band_cholesky.hpp: two of those side by side from both ends of the band, half the
// critical path) where the band is long against its width (kTwistedFromLength) and the device
// holds it in the two-sided layout (kd rows, two kd x kd blocks and 256 bytes more). A
// band larger than the device memory allowed is built in host memory, streamed through the
// device in chunks for the factorisation (one-sided), and substituted on the host.
//
// SolveReport.figures: bandwidth (the matrix's), block_size, factor_bytes, flops (factorisation of the
// matrix's band, counted exactly: about n (kd + 1)^2), threads, refinement_steps, precision_fallback (1 when the mixed
// solve fell back to FP64), factorisations (of this preparation: 1, or 2 after that fall back), factor_precision_bits (32 or 64), device_chunks (CUDA: 0 when the
// band lived on the device, else the chunks it streamed through in), two_sided (CUDA: 1 when
// factored two-sided), persistent_kernel (CUDA: 1 when the persistent kernel factored).
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "kernels/dense_backend.hpp"
#include "solvers/direct/band_cholesky.hpp"
#include "solvers/direct/twisted_band_cholesky.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

std::unique_ptr<LinearSolver> make_band_cholesky_cpu(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_band_cholesky_cuda(const SolverOptions& options);
// As make_band_cholesky_cuda, with the device memory the band may take (bytes; 0: 90 % of the
// free memory): a band larger than that streams through the device.
std::unique_ptr<LinearSolver> make_band_cholesky_cuda_within(const SolverOptions& options, std::size_t device_bytes);

}  // namespace fem

namespace fem::band {

// The lower band of `matrix` in `layout`, allocated on `backend` after checking that it fits
// (SolveFailure otherwise) and uploaded in chunks of rows, so the host never holds it whole.
template <class T>
BandOnBackend<T> load_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout);

// The same in the two-sided layout cut by `split` (twisted_band_cholesky.hpp): the top rows
// uploaded as load_band's, the bottom band's scattered from the matrix straight to their
// reflected places (reflected_band_rows) and uploaded in chunks.
template <class T>
TwistedBand<T> load_twisted_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout,
                                 const TwistedSplit& split);

// Solves with a factored band for the n x r right-hand sides `rhs` (row-major), returning X.
template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const BandOnBackend<T>& factor,
                                   std::span<const double> rhs, index_t r);

// The same with a two-sided factor.
template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const TwistedBand<T>& factor,
                                   std::span<const double> rhs, index_t r);

// The CUDA solver's choices on the device (bench/results/2026-11-27-band-gpu-two-sided.md). Two-sided where n is at least kTwistedFromLength half-bandwidths:
// each walker walks n / 2 + kd rows, but side by side each step takes longer than alone (1.55x for
// the persistent kernel at b = 1000, 1.7x for the cublas chain at 4000), and the separator costs
// about kd rows more, so two-sided wins once 1.7 (n / 2 + kd) + kd < n, n > 18 kd. In FP64 the
// persistent kernel walks bands of half-bandwidth 64 (its tiles' width) up to below
// kPersistentBelow one-sided and kTwistedPersistentBelow two-sided (on half the device each
// walker's updates fall behind sooner), the cublas chain the others.
inline constexpr index_t kTwistedFromLength = 20;
inline constexpr index_t kPersistentBelow = 3000;
inline constexpr index_t kTwistedPersistentBelow = 2000;

// Factors on the back-end; kernels::NotPositiveDefinite becomes SolveFailure naming the equation.
template <class T>
void factor_or_fail(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule,
                    const ColumnsDone& columns_done = {});

}  // namespace fem::band

#pragma once
// The blocked right-looking band Cholesky A = L Lᵀ and its substitutions, on any dense
// back-end: every step is POTRF on the diagonal block, TRSM on the panel below it (which
// reaches at most `bandwidth` rows) and SYRK/GEMM on the trailing window the panel touches.
#include <functional>

#include "kernels/dense_backend.hpp"
#include "solvers/direct/band_of_csr.hpp"

namespace fem::band {

// The band in `layout` on a back-end: `storage` is layout.n x layout.pitch() (zero padding
// included), owned by `backend`.
template <class T>
struct BandOnBackend {
  BandLayout layout;
  kernels::DeviceMatrix<T> storage;

  // The rows x cols tile of A whose top-left element is (i, j); it must lie inside the window.
  kernels::DeviceMatrix<T> tile(index_t i, index_t j, index_t rows, index_t cols) const;
  // The first row's first entry where the back-end holds it (host or device pointer).
  T* rows() const { return storage.data(); }
};

// How the steps are issued. `tasks`: OpenMP tasks over block columns with dependencies, so the
// next diagonal block is factored while the rest of the trailing window is still updated (for
// host back-ends). `in_order`: one call per operation, each as wide as the step allows (for
// devices that queue work and parallelise inside each call). `look_ahead`: on the host's BLAS
// whatever the back-end (host memory only), a team of threads with one BLAS thread each, the
// next block column factored while the team updates the rest (band_look_ahead.hpp).
enum class Schedule { tasks, in_order, look_ahead };

// The schedule the CPU solver uses: look-ahead, at every half-bandwidth: in `fem bench band`'s
// sweeps against DPBTRF + DPBTRS it was the fastest on average, in order next
// (bench/results/2026-11-26-band-cpu.md).
inline constexpr Schedule kHostSchedule = Schedule::look_ahead;

// Called with the number of columns factored so far (in order and look-ahead: once a step; tasks:
// not called): progress, and a place where a caller may stop a long factorisation by throwing.
using ColumnsDone = std::function<void(index_t)>;

// Factors in place: the lower band becomes L. Throws kernels::NotPositiveDefinite naming the
// global equation whose pivot is not positive.
template <class T>
void factor(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule,
            const ColumnsDone& columns_done = {});

// Solves L Lᵀ X = B in place for the n x r right-hand sides X (row-major, on the back-end).
template <class T>
void substitute(kernels::DenseBackend& backend, const BandOnBackend<T>& factor,
                const kernels::DeviceMatrix<T>& x);

// One half of substitute: X := L^-1 X (forward) or X := L^-T X (backward).
enum class Sweep { forward, backward };
template <class T>
void substitute(kernels::DenseBackend& backend, const BandOnBackend<T>& factor, const kernels::DeviceMatrix<T>& x,
                Sweep sweep);

}  // namespace fem::band

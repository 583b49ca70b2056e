#pragma once
// The band layout (kernels/band_layout.hpp) of a CSR matrix: its bandwidth, the block size, the
// band rows filled from the matrix, and the work of factoring it.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "kernels/band_layout.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem::band {

using index_t = std::int64_t;

using kernels::BandLayout;

// max |i - j| over the stored entries of the matrix.
index_t bandwidth_of(const CsrMatrix& matrix);

// The block size chosen from the bandwidth when the caller does not give one (tuned with
// `fem bench band`): large enough for efficient products, small enough for several block
// columns to update in parallel.
// `two_sided` (GPU): for the two-sided factorisation's cublas chains, which hide more of the
// panel's latency behind each other's trailing updates and so gain from wider ones.
index_t default_block_size(index_t bandwidth, bool gpu, bool two_sided = false);

// The half-bandwidth a band of half-bandwidth kd and n equations is factored at on a GPU: kd
// rounded up to a multiple of 8 (at most n - 1; a band is also one of any wider half-bandwidth,
// the entries past kd zero). cuBLAS's products and the persistent kernel's tiles run at their
// pace on such shapes and slower on odd ones (bench/results/2026-11-27-band-gpu-odd-windows.md);
// the flops grow by at most 7 / kd.
index_t device_bandwidth(index_t kd, index_t n);

// Checks the layout against the matrix and the block size (throws std::invalid_argument).
BandLayout make_layout(const CsrMatrix& matrix, index_t block);

// Rows [first, last) of the band in `layout`, into `out` (pitch() entries per row, padding
// zeroed), from the lower triangle of `matrix`.
template <class T>
void fill_band_rows(const CsrMatrix& matrix, const BandLayout& layout, index_t first, index_t last, T* out);

// Rows of the band's reflection J A J below row `first` of A: row r (0 <= r < n - first) is
// equation n - 1 - r, its entry (r, c) is A(n - 1 - c, n - 1 - r) (its padding zero), scattered
// from the lower triangle of the matrix's rows [first, n) read once, bottom-up. They are handed
// to `take(first_row, rows, data)` in order, as they are complete, at most `chunk` rows a call
// (pitch() entries a row), from a buffer of chunk + kd rows.
template <class T>
using TakeRows = std::function<void(index_t first_row, index_t rows, const T* data)>;
template <class T>
void reflected_band_rows(const CsrMatrix& matrix, const BandLayout& layout, index_t first, index_t chunk,
                         const TakeRows<T>& take);

// Floating-point operations of the band Cholesky factorisation counted exactly:
// column j with r = min(kd, n - 1 - j) entries below the diagonal costs r divisions,
// r (r + 1) / 2 multiply-adds and a square root, i.e. (r + 1)^2 = about n (kd + 1)^2 in all.
double cholesky_flops(index_t n, index_t bandwidth);
// Forward and back substitution for `rhs` right-hand sides: 2 (2 kd + 1) n each, about.
double substitution_flops(index_t n, index_t bandwidth, index_t rhs);

}  // namespace fem::band

#pragma once
// Where the lower band of a symmetric matrix lives: row by row, each row holding its
// `window` entries left of the diagonal and the diagonal. The window is the half-bandwidth
// plus one block of zero padding, so that every tile the blocked factorisation touches (the
// panel below a diagonal block reaches one block past the bandwidth) is a plain row-major
// matrix with leading dimension `window`: element (i, j) sits at i * window + j + window.
// The window is rounded up to a multiple of 8 entries: every row's entry (i, j) then sits at
// the alignment of (0, j), so that the GPU kernels read and write whole 16- to 64-byte pieces of
// a row (with odd windows they went entry by entry, much slower).
#include <cstddef>
#include <cstdint>

namespace fem::kernels {

struct BandLayout {
  std::int64_t n = 0;          // equations
  std::int64_t bandwidth = 0;  // half-bandwidth kd: A(i, j) = 0 when |i - j| > kd
  std::int64_t block = 1;      // the block size nb of the factorisation

  std::int64_t window() const { return (bandwidth + block + 7) / 8 * 8; }
  std::int64_t pitch() const { return window() + 1; }  // stored entries per row
  std::int64_t offset(std::int64_t i, std::int64_t j) const { return i * window() + j + window(); }
  std::size_t elements() const { return static_cast<std::size_t>(n) * static_cast<std::size_t>(pitch()); }
};

}  // namespace fem::kernels

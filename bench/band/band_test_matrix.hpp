#pragma once
// The benchmark's SPD band matrix, entry by entry so that any rows can be made anywhere (host
// or device): off-diagonal entries in [-1, 1) from a hash of (i, j), diagonal 2 b + 1
// (dominant, so SPD).
#include <cstdint>

#if defined(__CUDACC__)
#define FEM_BAND_HOST_DEVICE __host__ __device__
#else
#define FEM_BAND_HOST_DEVICE
#endif

namespace fem::bench {

FEM_BAND_HOST_DEVICE inline double band_entry(std::int64_t i, std::int64_t j, std::int64_t b) {
  if (i == j) return 2.0 * static_cast<double>(b) + 1;
  std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(j) * 0xC2B2AE3D27D4EB4Full;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  return static_cast<double>(h >> 11) * 0x1.0p-52 - 1.0;
}

// Row i of the lower band in our layout: `window` entries left of the diagonal, then the
// diagonal; entries past the bandwidth (and left of column 0) are zero.
FEM_BAND_HOST_DEVICE inline double band_slot(std::int64_t i, std::int64_t slot, std::int64_t b, std::int64_t window) {
  const std::int64_t j = i - window + slot;
  return (j < 0 || i - j > b) ? 0.0 : band_entry(i, j, b);
}

// Row r of the band's reflection J A J (n equations) as band_slot's: equation n - 1 - r, entry
// (r, c) = A(n - 1 - c, n - 1 - r), a lower one of A.
FEM_BAND_HOST_DEVICE inline double reflected_band_slot(std::int64_t r, std::int64_t slot, std::int64_t b,
                                                       std::int64_t window, std::int64_t n) {
  const std::int64_t c = r - window + slot;
  return (c < 0 || r - c > b) ? 0.0 : band_entry(n - 1 - c, n - 1 - r, b);
}

// Rows [first, last) of the band into device memory `rows` (pitch window + 1); CUDA builds only.
template <class T>
void fill_band_on_device(T* rows, std::int64_t first, std::int64_t last, std::int64_t b, std::int64_t window);
// The n - first rows of its reflection below row `first` (the two-sided layout's bottom band).
template <class T>
void fill_reflected_band_on_device(T* rows, std::int64_t n, std::int64_t first, std::int64_t b, std::int64_t window);

}  // namespace fem::bench

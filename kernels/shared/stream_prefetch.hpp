#pragma once
// Software prefetch of a streamed array a fixed distance ahead of where a sparse product reads it.
// On the 2-core virtual machine the hardware prefetcher alone left the host's block products at
// 50-60 % of the memory's read bandwidth (bench/RESULTS.md, 2026-12-07: the 80^3 cube's 3x3
// single-precision product 32-35 ms without, 20.7 ms with); a prefetch of memory already on its
// way costs one instruction. Prefetches never fault, so reading past an array's end is harmless.
#include <cstddef>

namespace fem::kernels {

// How far ahead: a few rows' worth of blocks, far enough to cover the memory's latency.
inline constexpr std::size_t kPrefetchAheadBytes = 2048;

// Prefetches the `bytes` at `at` (one element, e.g. a block) kPrefetchAheadBytes ahead, a 64-byte
// line at a time.
template <std::size_t bytes>
inline void prefetch_ahead(const void* at) {
  const char* ahead = static_cast<const char*>(at) + kPrefetchAheadBytes;
  for (std::size_t line = 0; line < bytes; line += 64) __builtin_prefetch(ahead + line);
}

// The same for an element whose size is known at run time.
inline void prefetch_ahead(const void* at, std::size_t bytes) {
  const char* ahead = static_cast<const char*>(at) + kPrefetchAheadBytes;
  for (std::size_t line = 0; line < bytes; line += 64) __builtin_prefetch(ahead + line);
}

}  // namespace fem::kernels

#pragma once
// Software prefetch of a streamed array a fixed distance ahead of where a sparse product reads it.
// On the 2-core virtual machine the hardware prefetcher alone left the host's block products at
// 50-60 % of the memory's read bandwidth (bench/RESULTS.md, 2026-12-07: the 80^3 cube's 3x3
// single-precision product 32-35 ms without, 20.7 ms with); a prefetch of memory already on its
// way costs one instruction. Prefetches never fault, so reading past an array's end is harmless.
#include <cstddef>
#include <cstdint>

namespace fem::kernels {

// How far ahead: a few rows' worth of blocks, far enough to cover the memory's latency.
inline constexpr std::size_t kPrefetchAheadBytes = 2048;

// Prefetches the cache lines of the `bytes` at `at` (a block, or a row's blocks) kPrefetchAheadBytes
// ahead.
inline void prefetch_ahead(const void* at, std::size_t bytes) {
  const auto ahead = reinterpret_cast<std::uintptr_t>(at) + kPrefetchAheadBytes;
  for (auto line = ahead & ~std::uintptr_t{63}; line < ahead + bytes; line += 64)
    __builtin_prefetch(reinterpret_cast<const void*>(line));
}

}  // namespace fem::kernels

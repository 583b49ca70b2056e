#pragma once
// The machine's memory bandwidth as the STREAM triad sees it (a = b + s c over arrays far larger
// than the caches, on every OpenMP thread): the limit the pipeline's GB/s are compared with.
#include <cstddef>

namespace fem::bench {

// Best of `repeats` triads over three arrays of `doubles` each, in bytes per second, counting
// 24 bytes per index as STREAM does (the write-allocate read of `a` not counted).
double stream_triad_bytes_per_second(std::size_t doubles = std::size_t{1} << 24, int repeats = 10);

}  // namespace fem::bench

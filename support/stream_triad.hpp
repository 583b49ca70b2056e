#pragma once
// The machine's memory bandwidth as the STREAM triad sees it (a = b + s c over arrays far larger
// than the caches, on every OpenMP thread): the limit the pipeline benchmark's GB/s are compared
// with, and the rate fem check's time estimates (fem/resources) assume of memory-bound solvers.
#include <cstddef>

namespace fem {

// Best of `repeats` triads over three arrays of `doubles` each, in bytes per second, counting
// 24 bytes per index as STREAM does (the write-allocate read of `a` not counted).
double stream_triad_bytes_per_second(std::size_t doubles = std::size_t{1} << 24, int repeats = 10);

}  // namespace fem

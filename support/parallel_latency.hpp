#pragma once
// What one OpenMP parallel region costs on this machine now, with no work in it: a few
// microseconds on idle cores, a scheduler's time slice when other processes hold the cores.
// Solvers whose iterations are many short parallel loops (AMG's levels) pay it on every loop.

namespace fem {

// Mean seconds a region takes over `regions` empty ones (after one that starts the threads),
// stopping early once 50 ms have passed.
double parallel_region_seconds(int regions = 64);

}  // namespace fem

#pragma once
// The rate the direct solvers' dense work reaches on this machine now: DGEMM on the host BLAS
// they call, with the threads it has. Time estimates (fem check, solver.method: auto) scale
// from it, so they follow the machine and its current load instead of assuming one.

namespace fem::band {

// Best of a few DGEMMs of `size`-square tiles, in floating-point operations per second (2 size^3
// per product); 20 to 40 ms.
double dense_flops_per_second(int size = 512);

}  // namespace fem::band

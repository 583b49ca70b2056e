#pragma once
// `fem bench band`: the blocked band Cholesky factorisation over n and half-bandwidth b
// (50 ... 4000) on the chosen implementations (our OpenMP and CUDA/cuBLAS back-ends, OpenBLAS's
// LAPACKE_dpbtrf on the same threads), time, GFLOP/s (exact count, about n (b + 1)^2) and
// speed-ups side by side in one run; prints a table and writes CSV. --help lists the options.

namespace fem::bench {

// Returns the process exit code (0 on success, 2 on bad options).
int run_band_benchmark(int argc, char** argv);

}  // namespace fem::bench

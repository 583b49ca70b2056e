#pragma once
// `fem bench band`: the blocked band Cholesky factorisation over n and half-bandwidth b
// (50 ... 4000) on the chosen implementations (ours on OpenBLAS tiles, on the project's OpenMP
// kernels, on CUDA with cuBLAS and streams, in place or streamed; OpenBLAS's LAPACKE_dpbtrf on the
// same threads), time, GFLOP/s (exact count, about n (b + 1)^2), speed-ups and the fraction of
// cuBLAS DGEMM side by side in one run; prints a table and writes CSV. --help lists the options.

namespace fem::bench {

// Returns the process exit code (0 on success, 2 on bad options).
int run_band_benchmark(int argc, char** argv);

}  // namespace fem::bench

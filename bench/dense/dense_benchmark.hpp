#pragma once
// `fem bench dense`: GEMM time and GFLOP/s of every dense back-end, OpenBLAS and cuBLAS, side by
// side in one run over sizes 64..8192; prints a table and writes CSV. --help lists the options.

namespace fem::bench {

// Returns the process exit code (0 on success, 2 on bad options).
int run_dense_benchmark(int argc, char** argv);

}  // namespace fem::bench

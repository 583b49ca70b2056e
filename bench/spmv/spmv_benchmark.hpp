#pragma once
// `fem bench spmv`: SpMV of our FE matrices (and Matrix Market files) in every CUDA format and
// launch setting, the OpenCL tunable CSR kernel, cuSPARSE CSR in the same run, GB/s, GFLOP/s,
// watts and joules per SpMV; optionally a full PCG solve of an elasticity box on the GPU.

namespace fem::bench {

// argv[0] is skipped; --help lists the options. Prints tables, writes CSV; returns 0 on success.
int run_spmv_benchmark(int argc, char** argv);

}  // namespace fem::bench

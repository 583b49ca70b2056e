#pragma once
// `fem bench frontal`: the frontal solver on 2D and 3D elasticity boxes of growing size, on
// the CPU and (where they run) OpenCL and CUDA, side by side with the band Cholesky on the
// same renumbered system and with CHOLMOD; prints a table and writes CSV.

namespace fem::bench {

int run_frontal_benchmark(int argc, char** argv);

}  // namespace fem::bench

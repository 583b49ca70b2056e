#pragma once
// A full PCG solve of a 3D elasticity box assembled by the project's pipeline, on the
// GPU (cg:cuda, SpMV auto-tuned) and, for a given number of iterations, on the CPU (cg:cpu).

#include <string>

namespace fem::bench {

// cells^3 hex8 cells, clamped on xmin, under gravity: 3 (cells + 1)^3 equations, relative
// residual 1e-8. cpu_iterations > 0 also times that many CPU PCG iterations and extrapolates to
// the GPU's iteration count. Prints the figures; returns 0.
int run_pcg_comparison(int cells, int cpu_iterations, const std::string& preconditioner);

}  // namespace fem::bench

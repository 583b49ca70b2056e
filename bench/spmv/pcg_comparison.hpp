#pragma once
// PCG solves of a 3D elasticity box assembled by the project's pipeline, each preconditioner
// (jacobi and amg side by side) on the GPU (cg:cuda, SpMV auto-tuned) where it exists there, and
// on the CPU (cg:cpu) up to a given number of iterations.

#include <string>
#include <vector>

namespace fem::bench {

// cells^3 hex8 cells, clamped on xmin, under gravity: 3 (cells + 1)^3 equations, relative
// residual 1e-8. cpu_iterations > 0 also solves on the CPU, at most that many iterations (a
// capped solve is timed per iteration and extrapolated to the GPU's count). Each preconditioner
// runs `repeat` times (setup and solve; the first run meets a cold process: page faults, device
// start). Prints a table of iterations, setup, solve and true residual per run, with AMG's
// setup by step; returns 0.
int run_pcg_comparison(int cells, int cpu_iterations, const std::vector<std::string>& preconditioners, int repeat = 1);

}  // namespace fem::bench

#pragma once
// Irons' frontal method: element matrices are summed into a small dense front in the element
// order, equations are eliminated as soon as their last element is in (several at once, as one
// rank-k update on a dense back-end: OpenMP, OpenCL or CUDA, the front staying on the device),
// the eliminated rows go to a factor store (memory or disk), and a back substitution in
// reverse order gives the solution. The global matrix is never assembled. Prescribed values
// never enter the front: their columns move to the load as each element comes in.
#include <cstdint>
#include <memory>
#include <string>

#include "solvers/linear_solver.hpp"

namespace fem {

struct FrontalSettings {
  std::string dense_backend = "openmp";  // a name of kernels/dense_registry.hpp
  // Eliminate once this many equations are fully summed: larger blocks make faster updates
  // on a bigger front (GPUs want more than CPUs).
  std::int64_t min_pivots = 32;
};

// Throws SolverUnavailable when the back-end is not built or has no device here.
std::unique_ptr<LinearSolver> make_frontal_solver(const SolverOptions& options, const FrontalSettings& settings);

// The registry's entries: frontal:cpu (OpenMP), frontal:opencl, frontal:cuda.
std::unique_ptr<LinearSolver> make_cpu_frontal(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_opencl_frontal(const SolverOptions& options);
std::unique_ptr<LinearSolver> make_cuda_frontal(const SolverOptions& options);

}  // namespace fem

#pragma once
// The multifrontal sparse Cholesky solver (method `multifrontal`): nested dissection of the node
// graph (METIS), symbolic analysis with supernodes, fronts eliminated by OpenBLAS under a tree of
// OpenMP tasks, supernodal substitution. Under precision `mixed` it factors in FP32 and refines
// in FP64, falling back to an FP64 factor when that does not converge. On device cuda the large
// fronts and those above them are factorised on the GPU (device_factorisation.hpp), where their
// part of the substitution runs too. prepare() analyses and factorises once for any number of
// right-hand sides (figures["factorisations"]: 1, or 2 after mixed precision fell back to FP64).
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// The registry's entry multifrontal:cpu.
std::unique_ptr<LinearSolver> make_multifrontal_cpu(const SolverOptions& options);

// On device cuda the fronts of at least this many flops, and every front above one of them, are
// assembled and eliminated on the GPU; the subtrees below stay on the host's threads. 1e8 flops is
// a front of about 1,000 rows and 100 pivots: a few milliseconds of one CPU thread, where the
// device's launches and the host update matrices' uploads cost a tenth of a millisecond.
constexpr double kDeviceMinFlops = 1e8;

// The registry's entry multifrontal:cuda. Throws SolverUnavailable in a build without CUDA or on
// a machine without a device.
std::unique_ptr<LinearSolver> make_multifrontal_cuda(const SolverOptions& options);
// The same with another threshold (0: every front on the device), for tests and benchmarks.
std::unique_ptr<LinearSolver> make_multifrontal_cuda_from(const SolverOptions& options, double device_min_flops);

}  // namespace fem

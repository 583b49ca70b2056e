#pragma once
// Preconditioned CG with the whole iteration on an OpenCL device (the tunable CSR kernel, or ELL/
// SELL), reductions finished on the device so only scalars are read back.
#include <memory>

#include "solvers/linear_solver.hpp"

namespace fem {

// preconditioner: none or jacobi. options.spmv: "auto" (CSR work-group size and rows per group
// tuned within 1 s) or a setting such as "csr/wg128/r8", "sell/wg128" (kernels/opencl/spmv_opencl.hpp).
// Throws SolverUnavailable without an OpenCL device or build, SolveFailure like the CPU CG.
std::unique_ptr<LinearSolver> make_opencl_conjugate_gradient(const SolverOptions& options);

}  // namespace fem

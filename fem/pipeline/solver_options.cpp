#include "fem/pipeline/solver_options.hpp"

#include "kernels/cpu/spmv_autotune.hpp"

namespace fem {

SolverOptions solver_options(const SolverSpec& spec) {
  SolverOptions options;
  options.method = spec.method;
  options.device = spec.device;
  options.preconditioner = spec.preconditioner;
  options.precision = spec.precision;
  options.tolerance = spec.tolerance;
  options.max_iterations = spec.max_iterations;
  options.out_of_core = spec.out_of_core;
  // `auto` carries the tuning mode to the back-end: "auto" (the cache), "auto/fresh", "auto/model".
  options.spmv = spec.spmv == "auto" ? kernels::auto_spmv_setting(spec.spmv_tuning) : spec.spmv;
  options.petsc_options = spec.petsc_options;
  options.amg = spec.amg;
  return options;
}

}  // namespace fem

#include "solvers/multifrontal/multifrontal_solver.hpp"

#include <omp.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "fem/config.hpp"
#include "kernels/cpu/spmv_cpu.hpp"
#include "solvers/direct/available_memory.hpp"
#include "support/host_memory.hpp"
#include "solvers/direct/blas_backend.hpp"
#include "solvers/multifrontal/numeric_factorisation.hpp"
#include "solvers/multifrontal/supernodal_solve.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"
#include "solvers/progress_meter.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/cuda_backend.hpp"
#include "solvers/multifrontal/device_factorisation.hpp"
#endif

namespace fem {

namespace {

// GFLOP/s of `flops` done in `seconds` (0 for a phase that took no measurable time).
double gflop_rate(double flops, double seconds) { return seconds > 0 ? flops / seconds * 1e-9 : 0.0; }

// r := b - A x; returns ||r|| / ||b|| (||r|| when b = 0).
double residual(const CsrMatrix& a, std::span<const double> b, std::span<const double> x, std::vector<double>& r) {
  r.resize(b.size());
  kernels::spmv_openmp(a, x, r);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    r[i] = b[i] - r[i];
    rr += r[i] * r[i];
    bb += b[i] * b[i];
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

// A relative residual above this after a direct solve means the system was singular.
constexpr double kSingularResidual = 1e-6;

class MultifrontalSolver final : public LinearSolver {
 public:
  // Fronts of device_min_flops and above (and those above them) go to the device; infinity: none.
  MultifrontalSolver(const SolverOptions& options, double device_min_flops)
      : options_(options), device_min_flops_(device_min_flops) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    const CsrMatrix& a = system.matrix;
    if (static_cast<std::int64_t>(system.rhs.size()) != a.rows || static_cast<std::int64_t>(solution.size()) != a.rows)
      throw std::invalid_argument("multifrontal: the matrix has " + std::to_string(a.rows) + " rows but the rhs " +
                                  std::to_string(system.rhs.size()) + " and the solution " +
                                  std::to_string(solution.size()) + " entries");
    SolveReport report;
    const Stopwatch start;
    const auto symbolic =
        multifrontal::analyse(a, system.nodes.dofs_per_node, omp_get_max_threads(), device_min_flops_);
    report.time_setup_s = start.seconds();
    auto& f = report.figures;
    f["time_order_s"] = symbolic.time_order_s;
    f["time_symbolic_s"] = symbolic.time_symbolic_s;
    f["block_size"] = symbolic.block;
    f["threads"] = symbolic.threads;
    f["supernodes"] = symbolic.supernodes();
    f["subtrees"] = static_cast<double>(symbolic.schedule.subtree_root.size());
    f["front_max"] = static_cast<double>(symbolic.front_max);
    f["factor_nnz"] = static_cast<double>(symbolic.factor_entries());
    f["flops"] = symbolic.flops;
    f["refinement_steps"] = 0;
    f["precision_fallback"] = 0;

    if (options_.precision == Precision::Mixed && solve_mixed(system, symbolic, solution, report)) return report;
    if (options_.precision == Precision::Mixed) {
      f["precision_fallback"] = 1;
      if (options_.progress) options_.progress("mixed precision did not converge: factoring in FP64");
    }
    const auto factor = factor_in<double>(a, symbolic, report);
    std::vector<double> x(a.rows);
    substitute_in(symbolic, factor, system.rhs, x, report);
    std::copy(x.begin(), x.end(), solution.begin());
    report.residual = residual(a, system.rhs, solution, residual_);
    report.residual_history = {report.residual};
    f["smallest_pivot_ratio"] = factor.smallest_pivot_ratio;
    // Cholesky is backward stable: on a positive definite system the residual is a rounding
    // error whatever the conditioning; a large one means the system is singular.
    if (report.residual > kSingularResidual) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.1e", factor.smallest_pivot_ratio);
      throw SolveFailure("multifrontal: the system is singular: the solution leaves a relative residual of " +
                             std::to_string(report.residual) + "; the smallest pivot, " + ratio +
                             " times its diagonal, is equation " + std::to_string(factor.smallest_pivot_equation) +
                             "'s (a body free to move?)",
                         factor.smallest_pivot_equation);
    }
    return report;
  }

 private:
  template <class T>
  multifrontal::NumericFactor<T> factor_in(const CsrMatrix& a, const multifrontal::SymbolicFactor& symbolic,
                                           SolveReport& report) {
    // The symbolic analysis knows what the factorisation will hold: refuse before allocating it.
    band::require_memory(symbolic.estimate_bytes(sizeof(T)), host_available_memory(),
                         "the multifrontal factorisation of " + std::to_string(a.rows) + " equations (" +
                             std::to_string(sizeof(T) * 8) + "-bit factor, update matrices and row maps)",
                         "the host", "use cg with --preconditioner amg, or --precision mixed for a factor in single precision");
    const Stopwatch start;
    ProgressMeter progress(options_);
    auto factor = multifrontal::factorise<T>(symbolic, a, blas_, &progress);
    if (!symbolic.schedule.device.empty()) factor_on_device(a, symbolic, factor, start.seconds(), report);
    const double seconds = start.seconds();
    report.time_setup_s += seconds;
    auto& f = report.figures;
    const std::size_t used = symbolic.factor_bytes(sizeof(T)) + symbolic.workspace_bytes() +
                             static_cast<std::size_t>(factor.update_peak_entries) * sizeof(T);
    f["time_factor_s"] = seconds;
    f["factor_gflops"] = gflop_rate(symbolic.flops, seconds);
    f["factor_bytes"] = static_cast<double>(symbolic.factor_bytes(sizeof(T)));
    f["factor_precision_bits"] = sizeof(T) * 8;
    f["estimate_bytes"] = static_cast<double>(symbolic.estimate_bytes(sizeof(T)));
    f["factorisation_bytes"] = static_cast<double>(used);
    f["update_stack_bytes"] = static_cast<double>(symbolic.threads * symbolic.stack_entries * sizeof(T));
    f["update_peak_bytes"] = static_cast<double>(factor.update_peak_entries * sizeof(T));
    report.memory_bytes = std::max(report.memory_bytes, used + 3 * static_cast<std::size_t>(a.rows) * sizeof(double));
    return factor;
  }

  // The device's part of the factor, and its figures beside the host's.
  template <class T>
  void factor_on_device([[maybe_unused]] const CsrMatrix& a, [[maybe_unused]] const multifrontal::SymbolicFactor& symbolic,
                        [[maybe_unused]] multifrontal::NumericFactor<T>& factor, double host_seconds,
                        SolveReport& report) {
    auto& f = report.figures;
    f["time_host_factor_s"] = host_seconds;
#if FEM_WITH_CUDA
    const auto device = multifrontal::factorise_on_device<T>(symbolic, a, factor);
    f["device_fronts"] = static_cast<double>(device.fronts);
    f["device_flops"] = device.flops;
    f["time_device_s"] = device.seconds;
    f["device_gflops"] = gflop_rate(device.flops, device.seconds);
    f["time_device_elimination_s"] = device.elimination_s;
    f["device_elimination_gflops"] = gflop_rate(device.flops, device.elimination_s);
    f["large_fronts"] = static_cast<double>(device.large_fronts);
    f["large_front_flops"] = device.large_flops;
    f["large_front_gflops"] = gflop_rate(device.large_flops, device.large_s);
    f["time_large_front_s"] = device.large_s;
    f["time_large_panel_s"] = device.large_panel_s;
    f["large_panel_gflops"] = gflop_rate(device.large_panel_flops, device.large_panel_s);
    f["time_large_update_s"] = device.large_update_s;
    f["large_update_gflops"] = gflop_rate(device.large_update_flops, device.large_update_s);
    f["device_peak_bytes"] = static_cast<double>(device.peak_bytes);
    f["device_estimate_bytes"] = static_cast<double>(device.estimate_bytes);
    f["device_upload_bytes"] = static_cast<double>(device.upload_bytes);
#else
    throw SolverUnavailable("multifrontal: this build has no CUDA (configure with FEM_WITH_CUDA=ON)");
#endif
  }

  // x := A⁻¹ b through the factor, b and x in the caller's numbering.
  template <class T>
  void substitute_in(const multifrontal::SymbolicFactor& symbolic, const multifrontal::NumericFactor<T>& factor,
                     std::span<const double> b, std::span<double> x, SolveReport& report) {
    const Stopwatch start;
    std::vector<T> y(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) y[symbolic.new_of_old[i]] = static_cast<T>(b[i]);
    multifrontal::substitute<T>(symbolic, factor.panels.get(), factor.device.get(), y);
    for (std::size_t i = 0; i < b.size(); ++i) x[i] = y[symbolic.new_of_old[i]];
    const double seconds = start.seconds();
    report.time_solve_s += seconds;
    report.figures["time_substitute_s"] = seconds;
  }

  // FP32 factor, FP64 residuals: x += solve(r) until ||r|| / ||b|| <= tolerance. Returns false
  // (the caller falls back to FP64) when the FP32 factorisation fails or refinement stalls.
  bool solve_mixed(const AssembledSystem& system, const multifrontal::SymbolicFactor& symbolic,
                   std::span<double> solution, SolveReport& report) {
    constexpr int max_steps = 30;
    std::optional<multifrontal::NumericFactor<float>> factor;
    try {
      factor = factor_in<float>(system.matrix, symbolic, report);
    } catch (const SolveFailure&) {
      return false;  // not positive definite in FP32: FP64 decides
    }
    std::fill(solution.begin(), solution.end(), 0.0);
    std::vector<double> r(system.rhs.begin(), system.rhs.end()), d(r.size());
    double previous = 1;
    for (int step = 1; step <= max_steps; ++step) {
      substitute_in(symbolic, *factor, r, d, report);
      for (std::size_t i = 0; i < d.size(); ++i) solution[i] += d[i];
      const Stopwatch start;
      const double rel = residual(system.matrix, system.rhs, solution, r);
      report.time_solve_s += start.seconds();
      report.residual_history.push_back(rel);
      report.residual = rel;
      report.figures["refinement_steps"] = step;
      if (options_.progress)
        options_.progress("refinement step " + std::to_string(step) + ", residual " + std::to_string(rel));
      if (rel <= options_.tolerance) return true;
      if (!(rel < 0.5 * previous)) return false;  // stalled or diverging: FP32 is not enough here
      previous = rel;
    }
    return false;
  }

  SolverOptions options_;
  double device_min_flops_;
  band::BlasBackend blas_;
  std::vector<double> residual_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_multifrontal_cpu(const SolverOptions& options) {
  return std::make_unique<MultifrontalSolver>(options, std::numeric_limits<double>::infinity());
}

std::unique_ptr<LinearSolver> make_multifrontal_cuda(const SolverOptions& options) {
  return make_multifrontal_cuda_from(options, kDeviceMinFlops);
}

std::unique_ptr<LinearSolver> make_multifrontal_cuda_from(const SolverOptions& options, double device_min_flops) {
#if FEM_WITH_CUDA
  const std::string reason = kernels::cuda::unavailable_reason();
  if (!reason.empty()) throw SolverUnavailable("multifrontal on cuda: " + reason);
  return std::make_unique<MultifrontalSolver>(options, device_min_flops);
#else
  (void)options;
  (void)device_min_flops;
  throw SolverUnavailable("multifrontal on cuda: this build has no CUDA (configure with FEM_WITH_CUDA=ON)");
#endif
}

}  // namespace fem

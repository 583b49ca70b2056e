#include "solvers/multifrontal/multifrontal_solver.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "solvers/direct/available_memory.hpp"
#include "support/host_memory.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/iterative_refinement.hpp"
#include "solvers/multifrontal/numeric_factorisation.hpp"
#include "solvers/multifrontal/supernodal_solve.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"
#include "solvers/progress_meter.hpp"
#include "support/stopwatch.hpp"
#include "solvers/multifrontal/device_factorisation.hpp"

namespace fem {

namespace {

// GFLOP/s of `flops` done in `seconds` (0 for a phase that took no measurable time).
double gflop_rate(double flops, double seconds) { return seconds > 0 ? flops / seconds * 1e-9 : 0.0; }

// A relative residual above this after a direct solve means the system was singular.
constexpr double kSingularResidual = 1e-6;

// The matrix analysed and factorised once (in FP32 under mixed precision, in FP64 otherwise or
// once FP32 has failed), then the right-hand sides substituted: all in one sweep over an FP64
// factor held on the host, one after another where the device holds part of the factor (it
// substitutes one vector at a time) or FP32 refinement needs each its own steps.
class PreparedMultifrontal final : public PreparedSolver {
 public:
  // `device` (null: every front on the host) and `blas` must outlive this.
  PreparedMultifrontal(const SolverOptions& options, double device_min_flops,
                       const multifrontal::MultifrontalKernels* device, kernels::DenseBackend& blas,
                       const CsrMatrix& a, NodeLayout nodes)
      : options_(options), device_(device), blas_(blas), a_(a) {
    const Stopwatch start;
    symbolic_ = multifrontal::analyse(a, nodes.dofs_per_node, omp_get_max_threads(), device_min_flops);
    setup_.time_setup_s = start.seconds();
    auto& f = setup_.figures;
    f["time_order_s"] = symbolic_.time_order_s;
    f["time_symbolic_s"] = symbolic_.time_symbolic_s;
    f["block_size"] = symbolic_.block;
    f["threads"] = symbolic_.threads;
    f["supernodes"] = symbolic_.supernodes();
    f["subtrees"] = static_cast<double>(symbolic_.schedule.subtree_root.size());
    f["front_max"] = static_cast<double>(symbolic_.front_max);
    f["factor_nnz"] = static_cast<double>(symbolic_.factor_entries());
    f["flops"] = symbolic_.flops;
    f["factorisations"] = 0;
    f["precision_fallback"] = 0;
    if (options_.precision == Precision::Mixed) {
      try {
        single_ = factor_in<float>();
        return;
      } catch (const SolveFailure&) {
        fall_back();  // not positive definite in FP32: FP64 decides
      }
    }
    double_ = factor_in<double>();
  }

  SolveReport solve(std::span<const double> rhs, std::span<double> solution, int count) override {
    require_right_hand_sides(a_.rows, rhs, solution, count);
    if (count > 1 && !single_ && !double_->device) return solve_together(rhs, solution, count);
    const auto n = static_cast<std::size_t>(a_.rows);
    SolveReport total;
    total.figures["refinement_steps"] = 0;
    total.figures["time_substitute_s"] = 0;
    for (int k = 0; k < count; ++k) {
      const auto b = rhs.subspan(k * n, n);
      const auto x = solution.subspan(k * n, n);
      SolveReport one;
      const Stopwatch start;
      if (!(single_ && refined(b, x, one, total))) {
        if (single_) {  // refinement stalled: this and every later right-hand side in FP64
          single_.reset();
          fall_back();
          const double before = setup_.time_setup_s;
          double_ = factor_in<double>();
          one = {};
          one.time_setup_s = setup_.time_setup_s - before;
        }
        substitute_in(*double_, b, x, total);
        one.residual = relative_residual(a_, b, x, residual_);
        one.residual_history = {one.residual};
        require_nonsingular(one.residual);
      }
      one.time_solve_s = start.seconds() - one.time_setup_s;
      total.figures["refinement_steps"] =
          std::max(total.figures["refinement_steps"], one.figures["refinement_steps"]);
      add_right_hand_side(total, one);
    }
    return total;
  }

 private:
  void fall_back() {
    setup_.figures["precision_fallback"] = 1;
    if (options_.progress) options_.progress("mixed precision did not converge: factoring in FP64");
  }

  // The numeric factorisation in T; its time, sizes and rates go to setup().
  template <class T>
  multifrontal::NumericFactor<T> factor_in() {
    // The symbolic analysis knows what the factorisation will hold: refuse before allocating it.
    band::require_memory(symbolic_.estimate_bytes(sizeof(T)), host_available_memory(),
                         "the multifrontal factorisation of " + std::to_string(a_.rows) + " equations (" +
                             std::to_string(sizeof(T) * 8) + "-bit factor, update matrices and row maps)",
                         "the host", "use cg with --preconditioner amg, or --precision mixed for a factor in single precision");
    const Stopwatch start;
    ProgressMeter progress(options_);
    auto factor = multifrontal::factorise<T>(symbolic_, a_, blas_, &progress);
    if (!symbolic_.schedule.device.empty()) factor_on_device(factor, start.seconds());
    const double seconds = start.seconds();
    setup_.time_setup_s += seconds;
    auto& f = setup_.figures;
    const std::size_t used = symbolic_.factor_bytes(sizeof(T)) + symbolic_.workspace_bytes() +
                             static_cast<std::size_t>(factor.update_peak_entries) * sizeof(T);
    f["factorisations"] += 1;
    f["time_factor_s"] = seconds;
    f["factor_gflops"] = gflop_rate(symbolic_.flops, seconds);
    f["factor_bytes"] = static_cast<double>(symbolic_.factor_bytes(sizeof(T)));
    f["factor_precision_bits"] = sizeof(T) * 8;
    f["estimate_bytes"] = static_cast<double>(symbolic_.estimate_bytes(sizeof(T)));
    f["factorisation_bytes"] = static_cast<double>(used);
    f["update_stack_bytes"] = static_cast<double>(symbolic_.threads * symbolic_.stack_entries * sizeof(T));
    f["update_peak_bytes"] = static_cast<double>(factor.update_peak_entries * sizeof(T));
    f["smallest_pivot_ratio"] = factor.smallest_pivot_ratio;
    setup_.memory_bytes =
        std::max(setup_.memory_bytes, used + 3 * static_cast<std::size_t>(a_.rows) * sizeof(double));
    return factor;
  }

  // The device's part of the factor, and its figures beside the host's.
  template <class T>
  void factor_on_device(multifrontal::NumericFactor<T>& factor, double host_seconds) {
    auto& f = setup_.figures;
    f["time_host_factor_s"] = host_seconds;
    const auto device = multifrontal::factorise_on_device<T>(*device_, symbolic_, a_, factor);
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
  }

  // x := A⁻¹ b through the factor, b and x in the caller's numbering; the time goes to
  // report.figures["time_substitute_s"].
  template <class T>
  void substitute_in(const multifrontal::NumericFactor<T>& factor, std::span<const double> b, std::span<double> x,
                     SolveReport& report) {
    const Stopwatch start;
    std::vector<T> y(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) y[symbolic_.new_of_old[i]] = static_cast<T>(b[i]);
    multifrontal::substitute<T>(symbolic_, factor.panels.get(), factor.device.get(), y);
    for (std::size_t i = 0; i < b.size(); ++i) x[i] = y[symbolic_.new_of_old[i]];
    report.figures["time_substitute_s"] += start.seconds();
  }

  // Every right-hand side through the FP64 host factor in one sweep: each panel read once for all.
  SolveReport solve_together(std::span<const double> rhs, std::span<double> solution, int count) {
    const auto n = static_cast<std::size_t>(a_.rows);
    const auto r = static_cast<std::size_t>(count);
    SolveReport total;
    total.figures["refinement_steps"] = 0;
    const Stopwatch start;
    std::vector<double> y(n * r);  // row-major in the elimination order: row i's r values together
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < r; ++c) y[symbolic_.new_of_old[i] * r + c] = rhs[c * n + i];
    multifrontal::substitute<double>(symbolic_, double_->panels.get(), nullptr, y, count);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t c = 0; c < r; ++c) solution[c * n + i] = y[symbolic_.new_of_old[i] * r + c];
    total.figures["time_substitute_s"] = start.seconds();
    for (std::size_t c = 0; c < r; ++c) {
      SolveReport one;
      one.residual = relative_residual(a_, rhs.subspan(c * n, n), solution.subspan(c * n, n), residual_);
      one.residual_history = {one.residual};
      require_nonsingular(one.residual);
      add_right_hand_side(total, one);
    }
    total.time_solve_s = start.seconds();
    return total;
  }

  // x from the FP32 factor refined against the FP64 matrix (iterative_refinement.hpp), its steps in
  // `one`, the substitutions' time in `total`; false when refinement stalls.
  bool refined(std::span<const double> b, std::span<double> x, SolveReport& one, SolveReport& total) {
    return refine(
        a_, b, x,
        [&](std::vector<double>& r) {
          std::vector<double> d(r.size());
          substitute_in(*single_, r, d, total);
          r.swap(d);
        },
        options_, one);
  }

  // Cholesky is backward stable: on a positive definite system the residual is a rounding error
  // whatever the conditioning; a large one means the system is singular.
  void require_nonsingular(double relative) const {
    if (relative <= kSingularResidual) return;
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.1e", double_->smallest_pivot_ratio);
    throw SolveFailure("multifrontal: the system is singular: the solution leaves a relative residual of " +
                           std::to_string(relative) + "; the smallest pivot, " + ratio + " times its diagonal, is equation " +
                           std::to_string(double_->smallest_pivot_equation) + "'s (a body free to move?)",
                       double_->smallest_pivot_equation);
  }

  SolverOptions options_;
  const multifrontal::MultifrontalKernels* device_;
  kernels::DenseBackend& blas_;
  const CsrMatrix& a_;
  multifrontal::SymbolicFactor symbolic_;
  std::optional<multifrontal::NumericFactor<float>> single_;  // mixed precision, until it fails
  std::optional<multifrontal::NumericFactor<double>> double_;
  std::vector<double> residual_;
};

class MultifrontalSolver final : public LinearSolver {
 public:
  // Fronts of device_min_flops and above (and those above them) go to the device, which `device`
  // computes on; null: every front on the host.
  MultifrontalSolver(const SolverOptions& options, double device_min_flops,
                     const multifrontal::MultifrontalKernels* device)
      : options_(options),
        device_min_flops_(device ? device_min_flops : std::numeric_limits<double>::infinity()),
        device_(device) {}

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    return solve_by_preparing(system, solution);
  }

  std::unique_ptr<PreparedSolver> prepare(const CsrMatrix& matrix, NodeLayout nodes) override {
    return std::make_unique<PreparedMultifrontal>(options_, device_min_flops_, device_, *blas_, matrix, nodes);
  }

 private:
  SolverOptions options_;
  double device_min_flops_;
  const multifrontal::MultifrontalKernels* device_;
  std::unique_ptr<kernels::DenseBackend> blas_ = kernels::make_dense_backend("blas");
};

}  // namespace

std::unique_ptr<LinearSolver> make_multifrontal_cpu(const SolverOptions& options) {
  return std::make_unique<MultifrontalSolver>(options, std::numeric_limits<double>::infinity(), nullptr);
}

std::unique_ptr<LinearSolver> make_multifrontal_cuda(const SolverOptions& options) {
  return make_multifrontal_cuda_from(options, kDeviceMinFlops);
}

std::unique_ptr<LinearSolver> make_multifrontal_cuda_from(const SolverOptions& options, double device_min_flops) {
  const multifrontal::MultifrontalKernels* device = multifrontal::multifrontal_kernels_for("cuda");
  if (!device) throw SolverUnavailable("multifrontal on cuda: this build has no CUDA (configure with FEM_WITH_CUDA=ON)");
  const std::string reason = device->unavailable_reason();
  if (!reason.empty()) throw SolverUnavailable("multifrontal on cuda: " + reason);
  return std::make_unique<MultifrontalSolver>(options, device_min_flops, device);
}

}  // namespace fem

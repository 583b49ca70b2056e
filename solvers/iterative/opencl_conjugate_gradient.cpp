#include "solvers/iterative/opencl_conjugate_gradient.hpp"

#include <cmath>
#include <optional>
#include <vector>

#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/preconditioner.hpp"

#include "fem/config.hpp"
#if FEM_WITH_OPENCL
#include "kernels/device_matrix.hpp"
#include "kernels/opencl/spmv_opencl.hpp"
#endif

namespace fem {
#if FEM_WITH_OPENCL
namespace {

namespace cl = kernels::opencl;

constexpr double kTuningBudgetSeconds = 1.0;

class OpenClConjugateGradient final : public LinearSolver {
 public:
  explicit OpenClConjugateGradient(SolverOptions options) : options_(std::move(options)) {
    require_preconditioner(options_.preconditioner, {"none", "jacobi"}, "cg on opencl");
    if (options_.spmv != "auto") cl::parse_cl_spmv_setting(options_.spmv);  // reject a bad setting early
    try {
      device_.emplace();
    } catch (const kernels::BackendUnavailable& e) {
      throw SolverUnavailable(std::string("cg on opencl: ") + e.what());
    }
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> u) override {
    const CsrMatrix& a = system.matrix;
    const std::int64_t n = a.rows;
    const cl::ClSparseDevice& device = *device_;
    SolveReport report;
    const auto t_setup = KrylovClock::now();
    cl::ClSpmvSetting setting;
    if (options_.spmv == "auto") {
      const auto tuning = cl::tune_cl_csr(device, a, kTuningBudgetSeconds);
      setting = tuning.best;
      report.figures["spmv_tuned_seconds"] = tuning.best_seconds;
      report.figures["spmv_model_seconds"] = tuning.model_seconds;
    } else {
      setting = cl::parse_cl_spmv_setting(options_.spmv);
    }
    const cl::ClSpmv matrix(device, a, setting);
    if (options_.progress) options_.progress("cg on opencl (" + device.name() + "): SpMV " + cl::to_string(setting));
    cl::ClKrylovOps ops(device, n);
    cl::ClVector d_u(device, n), d_r(device, n), d_p(device, n), d_q(device, n);
    std::optional<cl::ClVector> d_inv_diag;
    if (options_.preconditioner == "jacobi") {
      const auto jacobi = make_preconditioner("jacobi", a);
      std::vector<double> ones(static_cast<std::size_t>(n), 1.0), inv(ones.size());
      jacobi->apply(ones, inv);
      d_inv_diag.emplace(device, inv.size());
      d_inv_diag->upload(inv.data());
    }
    const cl::ClVector* inv_diag = d_inv_diag ? &*d_inv_diag : nullptr;
    report.memory_bytes = matrix.device_bytes() + (4 + (inv_diag ? 1 : 0)) * n * sizeof(double);
    report.time_setup_s = seconds_since(t_setup);

    const auto t_solve = KrylovClock::now();
    KrylovMonitor monitor("cg", options_, n, report);
    d_u.upload(u.data());
    d_r.upload(system.rhs.data());
    const double norm_f = std::sqrt(ops.dot(d_r, d_r));
    if (norm_f == 0) {
      std::fill(u.begin(), u.end(), 0.0);
      report.time_solve_s = seconds_since(t_solve);
      return report;
    }
    matrix.apply(d_u, d_q);
    ops.subtract_from(d_r, d_q);  // q = f - K u
    std::swap(d_r, d_q);
    ops.cg_direction(0.0, d_r, inv_diag, d_p);
    double rz = ops.dot(d_r, d_p), rr = ops.dot(d_r, d_r);
    int it = 0;
    while (!monitor.converged(it, std::sqrt(rr) / norm_f)) {
      matrix.apply(d_p, d_q);
      const double pq = ops.dot(d_p, d_q);
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      const auto [rz_next, rr_next] = ops.cg_update(rz / pq, d_p, d_q, d_u, d_r, inv_diag);
      ops.cg_direction(rz_next / rz, d_r, inv_diag, d_p);
      rz = rz_next;
      rr = rr_next;
      ++it;
    }
    d_u.download(u.data());
    report.time_solve_s = seconds_since(t_solve);
    return report;
  }

 private:
  SolverOptions options_;
  std::optional<cl::ClSparseDevice> device_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_opencl_conjugate_gradient(const SolverOptions& options) {
  return std::make_unique<OpenClConjugateGradient>(options);
}
#else
std::unique_ptr<LinearSolver> make_opencl_conjugate_gradient(const SolverOptions&) {
  throw SolverUnavailable("cg on opencl: this build has no OpenCL support (configure with FEM_WITH_OPENCL=ON)");
}
#endif

}  // namespace fem

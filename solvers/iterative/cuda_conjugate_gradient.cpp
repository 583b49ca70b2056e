#include "solvers/iterative/cuda_conjugate_gradient.hpp"

#include <cmath>
#include <vector>

#include "solvers/iterative/krylov_monitor.hpp"
#include "solvers/iterative/preconditioner.hpp"

#include "fem/config.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/spmv_tuning.hpp"
#endif

namespace fem {
#if FEM_WITH_CUDA
namespace {

namespace gpu = kernels::cuda;

constexpr double kTuningBudgetSeconds = 1.0;

class CudaConjugateGradient final : public LinearSolver {
 public:
  explicit CudaConjugateGradient(SolverOptions options) : options_(std::move(options)) {
    require_preconditioner(options_.preconditioner, {"none", "jacobi", "block-jacobi"}, "cg on cuda");
    if (const auto why = gpu::unavailable_reason(); !why.empty()) throw SolverUnavailable("cg on cuda: " + why);
    if (options_.spmv != "auto") gpu::parse_spmv_setting(options_.spmv);  // reject a bad setting early
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> u) override {
    const CsrMatrix& a = system.matrix;
    const std::int64_t n = a.rows;
    SolveReport report;
    const auto t_setup = KrylovClock::now();
    std::shared_ptr<const gpu::DeviceSpmv> matrix_on_device;
    if (options_.spmv == "auto") {
      const auto tuning = gpu::tune_spmv(a, kTuningBudgetSeconds);
      matrix_on_device = tuning.best_matrix;
      report.figures["spmv_tuned_seconds"] = tuning.best_seconds;
      report.figures["spmv_model_seconds"] = tuning.model_seconds;
      report.figures["spmv_tuning_time_s"] = tuning.elapsed_seconds;
    } else {
      matrix_on_device = std::make_shared<gpu::DeviceSpmv>(a, gpu::parse_spmv_setting(options_.spmv));
    }
    const gpu::DeviceSpmv& matrix = *matrix_on_device;
    if (options_.progress) options_.progress("cg on cuda: SpMV " + gpu::to_string(matrix.setting()));
    gpu::DeviceVector d_u(n), d_r(n), d_p(n), d_q(n), d_sums(2);
    const gpu::DeviceVector d_precond = preconditioner_on_device(a);
    const gpu::DevicePreconditioner precond{d_precond.size() ? d_precond.data() : nullptr,
                                            options_.preconditioner == "block-jacobi" ? 3 : 1};
    report.memory_bytes = matrix.device_bytes() + 4 * n * sizeof(double) + d_precond.size() * sizeof(double);
    report.figures["spmv_bytes"] = static_cast<double>(matrix.device_bytes());
    report.time_setup_s = seconds_since(t_setup);

    const auto t_solve = KrylovClock::now();
    KrylovMonitor monitor("cg", options_, n, report);
    double sums[2];
    // r = f - K u; p = D r; rz = r.p, rr = r.r
    d_u.upload(u.data());
    d_r.upload(system.rhs.data());
    gpu::zero_sums(d_sums.data());
    gpu::dot(n, d_r.data(), d_r.data(), d_sums.data());
    gpu::read_sums(d_sums.data(), sums);
    const double norm_f = std::sqrt(sums[0]);
    if (norm_f == 0) {
      std::fill(u.begin(), u.end(), 0.0);
      report.time_solve_s = seconds_since(t_solve);
      return report;
    }
    matrix.apply(d_u.data(), d_q.data());
    gpu::subtract_from(n, d_r.data(), d_q.data());
    std::swap(d_r, d_q);
    gpu::cg_direction(n, 0.0, d_r.data(), precond, d_p.data());
    gpu::zero_sums(d_sums.data());
    gpu::dot(n, d_r.data(), d_p.data(), d_sums.data());
    gpu::dot(n, d_r.data(), d_r.data(), d_sums.data() + 1);
    gpu::read_sums(d_sums.data(), sums);
    double rz = sums[0], rr = sums[1];
    int it = 0;
    while (!monitor.converged(it, std::sqrt(rr) / norm_f)) {
      matrix.apply(d_p.data(), d_q.data());
      gpu::zero_sums(d_sums.data());
      gpu::dot(n, d_p.data(), d_q.data(), d_sums.data());
      gpu::read_sums(d_sums.data(), sums);
      const double pq = sums[0];
      if (!(pq > 0))
        throw SolveFailure("cg met a direction of non-positive curvature at iteration " + std::to_string(it) +
                           ": the matrix is not positive definite (a body free to move, or a bad material?)");
      gpu::zero_sums(d_sums.data());
      gpu::cg_update(n, rz / pq, d_p.data(), d_q.data(), d_u.data(), d_r.data(), precond, d_sums.data());
      gpu::read_sums(d_sums.data(), sums);
      gpu::cg_direction(n, sums[0] / rz, d_r.data(), precond, d_p.data());
      rz = sums[0];
      rr = sums[1];
      ++it;
    }
    d_u.download(u.data());
    report.time_solve_s = seconds_since(t_solve);
    return report;
  }

 private:
  // M^-1 as the device kernels read it: empty (none), the inverse diagonal (jacobi) or the
  // inverse 3x3 node blocks, row-major (block-jacobi). Read off the CPU preconditioner applied to
  // unit vectors, so the checks (positive pivots) and the arithmetic are the CPU solver's.
  gpu::DeviceVector preconditioner_on_device(const CsrMatrix& a) const {
    if (options_.preconditioner == "none") return gpu::DeviceVector();
    const auto m = make_preconditioner(options_.preconditioner, a);
    const auto n = static_cast<std::size_t>(a.rows);
    std::vector<double> unit(n), column(n), data;
    if (options_.preconditioner == "jacobi") {
      std::fill(unit.begin(), unit.end(), 1.0);
      m->apply(unit, column);
      data = column;
    } else {
      data.resize(3 * n);  // 9 per node
      for (std::size_t c = 0; c < 3; ++c) {
        for (std::size_t i = 0; i < n; ++i) unit[i] = i % 3 == c ? 1.0 : 0.0;
        m->apply(unit, column);  // column c of every node's inverse block
        for (std::size_t i = 0; i < n; ++i) data[9 * (i / 3) + 3 * (i % 3) + c] = column[i];
      }
    }
    gpu::DeviceVector d(data.size());
    d.upload(data.data());
    return d;
  }

  SolverOptions options_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_cuda_conjugate_gradient(const SolverOptions& options) {
  return std::make_unique<CudaConjugateGradient>(options);
}
#else
std::unique_ptr<LinearSolver> make_cuda_conjugate_gradient(const SolverOptions&) {
  throw SolverUnavailable("cg on cuda: this build has no CUDA support (configure with FEM_WITH_CUDA=ON)");
}
#endif

}  // namespace fem

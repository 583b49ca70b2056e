#include "solvers/direct/band_cholesky_solver.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <optional>
#include <string>

#include "kernels/dense_registry.hpp"
#include "solvers/direct/available_memory.hpp"

namespace fem::band {

template <class T>
BandOnBackend<T> load_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout) {
  const std::size_t bytes = layout.elements() * sizeof(T);
  require_memory(backend, bytes,
                 "the band of " + std::to_string(layout.n) + " equations, half-bandwidth " +
                     std::to_string(layout.bandwidth) + " and block " + std::to_string(layout.block) + " (" +
                     std::to_string(sizeof(T) * 8) + "-bit)");
  BandOnBackend<T> band{layout, backend.allocate<T>(layout.n, layout.pitch())};
  const index_t chunk = std::max<index_t>(1, (index_t{32} << 20) / (layout.pitch() * index_t{sizeof(T)}));
  std::vector<T> rows(static_cast<std::size_t>(std::min(chunk, layout.n) * layout.pitch()));
  for (index_t first = 0; first < layout.n; first += chunk) {
    const index_t last = std::min(layout.n, first + chunk);
    fill_band_rows(matrix, layout, first, last, rows.data());
    backend.upload(rows.data(), layout.pitch(), band.storage.block(first, 0, last - first, layout.pitch()));
  }
  return band;
}

template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const BandOnBackend<T>& factor,
                                   std::span<const double> rhs, index_t r) {
  const std::vector<T> b(rhs.begin(), rhs.end());
  const auto x = backend.upload(b.data(), factor.layout.n, r, r);
  if (backend.uses_host_memory() && r < 8) {
    // A few right-hand sides: the substitution is memory-bound and made of many small tile
    // solves; one thread does it without a fork/join per tile (nested regions run inline).
    std::exception_ptr error;
#pragma omp parallel num_threads(1)
    try {
      substitute(backend, factor, x);
    } catch (...) {
      error = std::current_exception();
    }
    if (error) std::rethrow_exception(error);
  } else {
    substitute(backend, factor, x);
  }
  std::vector<T> solved(b.size());
  backend.download(x, solved.data(), r);
  return {solved.begin(), solved.end()};
}

template <class T>
void factor_or_fail(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule) {
  try {
    factor(backend, band, schedule);
  } catch (const kernels::NotPositiveDefinite& e) {
    throw SolveFailure("band Cholesky (" + std::to_string(sizeof(T) * 8) + "-bit): the pivot of equation " +
                           std::to_string(e.column()) + " is not positive: the matrix is not positive definite",
                       e.column());
  }
}

template BandOnBackend<double> load_band<double>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&);
template BandOnBackend<float> load_band<float>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&);
template std::vector<double> solve_factored<double>(kernels::DenseBackend&, const BandOnBackend<double>&,
                                                    std::span<const double>, index_t);
template std::vector<double> solve_factored<float>(kernels::DenseBackend&, const BandOnBackend<float>&,
                                                   std::span<const double>, index_t);
template void factor_or_fail<double>(kernels::DenseBackend&, const BandOnBackend<double>&, Schedule);
template void factor_or_fail<float>(kernels::DenseBackend&, const BandOnBackend<float>&, Schedule);

}  // namespace fem::band

namespace fem {

namespace {

using band::index_t;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// r := b - A x; returns ||r|| / ||b|| (||r|| when b = 0).
double residual(const CsrMatrix& a, std::span<const double> b, std::span<const double> x, std::vector<double>& r) {
  r.resize(b.size());
  double rr = 0, bb = 0;
#pragma omp parallel for reduction(+ : rr, bb) schedule(static)
  for (index_t i = 0; i < a.rows; ++i) {
    double sum = b[i];
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum -= a.val[k] * x[a.col[k]];
    r[i] = sum;
    rr += sum * sum;
    bb += b[i] * b[i];
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

class BandCholeskySolver final : public LinearSolver {
 public:
  BandCholeskySolver(const SolverOptions& options, std::unique_ptr<kernels::DenseBackend> backend,
                     band::Schedule schedule)
      : options_(options), backend_(std::move(backend)), schedule_(schedule) {
    if (options_.precision != "double" && options_.precision != "mixed")
      throw std::invalid_argument("band-cholesky: unknown precision '" + options_.precision +
                                  "' (known: double, mixed)");
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    const CsrMatrix& a = system.matrix;
    if (static_cast<index_t>(system.rhs.size()) != a.rows || static_cast<index_t>(solution.size()) != a.rows)
      throw std::invalid_argument("band-cholesky: the matrix has " + std::to_string(a.rows) + " rows but the rhs " +
                                  std::to_string(system.rhs.size()) + " and the solution " +
                                  std::to_string(solution.size()) + " entries");
    SolveReport report;
    const bool gpu = !backend_->uses_host_memory();
    band::BandLayout layout = band::make_layout(a, 0);
    layout.block = band::default_block_size(layout.bandwidth, gpu);
    report.figures["bandwidth"] = static_cast<double>(layout.bandwidth);
    report.figures["block_size"] = static_cast<double>(layout.block);
    report.figures["flops"] = band::cholesky_flops(layout.n, layout.bandwidth);
    report.figures["threads"] = gpu ? 0 : omp_get_max_threads();
    report.figures["refinement_steps"] = 0;
    report.figures["precision_fallback"] = 0;
    if (options_.precision == "mixed" && solve_mixed(system, layout, solution, report)) return report;
    if (options_.precision == "mixed") {
      report.figures["precision_fallback"] = 1;
      if (options_.progress) options_.progress("mixed precision did not converge: factoring in FP64");
    }
    solve_in<double>(system, layout, solution, report);
    report.residual = residual(a, system.rhs, solution, residual_);
    report.residual_history = {report.residual};
    return report;
  }

 private:
  // Factors in T and solves once; times and sizes go to the report.
  template <class T>
  band::BandOnBackend<T> factor_in(const AssembledSystem& system, const band::BandLayout& layout,
                                   SolveReport& report) {
    const auto start = Clock::now();
    auto factor = band::load_band<T>(*backend_, system.matrix, layout);
    band::factor_or_fail(*backend_, factor, schedule_);
    backend_->synchronize();
    report.time_setup_s += seconds_since(start);
    const std::size_t bytes = layout.elements() * sizeof(T);
    report.figures["factor_bytes"] = static_cast<double>(bytes);
    report.figures["factor_precision_bits"] = sizeof(T) * 8;
    report.memory_bytes = std::max(report.memory_bytes, bytes + 3 * system.rhs.size() * sizeof(double));
    return factor;
  }

  template <class T>
  void solve_in(const AssembledSystem& system, const band::BandLayout& layout, std::span<double> solution,
                SolveReport& report) {
    const auto factor = factor_in<T>(system, layout, report);
    const auto start = Clock::now();
    const auto x = band::solve_factored(*backend_, factor, system.rhs, 1);
    std::copy(x.begin(), x.end(), solution.begin());
    report.time_solve_s += seconds_since(start);
  }

  // FP32 factor, FP64 residuals: x += solve(r) until ||r|| / ||b|| <= tolerance. Returns false
  // (the caller falls back to FP64) when the FP32 factorisation fails or refinement stalls.
  bool solve_mixed(const AssembledSystem& system, const band::BandLayout& layout, std::span<double> solution,
                   SolveReport& report) {
    constexpr int max_steps = 30;
    std::optional<band::BandOnBackend<float>> factor;
    try {
      factor = factor_in<float>(system, layout, report);
    } catch (const SolveFailure&) {
      return false;  // not positive definite in FP32: FP64 decides
    }
    const auto start = Clock::now();
    std::fill(solution.begin(), solution.end(), 0.0);
    std::vector<double> r(system.rhs.begin(), system.rhs.end());
    double previous = 1;
    bool converged = false;
    for (int step = 1; step <= max_steps; ++step) {
      const auto d = band::solve_factored(*backend_, *factor, r, 1);
      for (std::size_t i = 0; i < d.size(); ++i) solution[i] += d[i];
      const double rel = residual(system.matrix, system.rhs, solution, r);
      report.residual_history.push_back(rel);
      report.residual = rel;
      report.figures["refinement_steps"] = step;
      if (options_.progress)
        options_.progress("refinement step " + std::to_string(step) + ", residual " + std::to_string(rel));
      if (rel <= options_.tolerance) {
        converged = true;
        break;
      }
      if (!(rel < 0.5 * previous)) break;  // stalled or diverging: FP32 is not enough here
      previous = rel;
    }
    report.time_solve_s += seconds_since(start);
    return converged;
  }

  SolverOptions options_;
  std::unique_ptr<kernels::DenseBackend> backend_;
  band::Schedule schedule_;
  std::vector<double> residual_;
};

std::unique_ptr<LinearSolver> make_on(const SolverOptions& options, const std::string& backend,
                                      band::Schedule schedule) {
  try {
    return std::make_unique<BandCholeskySolver>(options, kernels::make_dense_backend(backend), schedule);
  } catch (const kernels::BackendUnavailable& e) {
    throw SolverUnavailable("band-cholesky on '" + options.device + "': " + e.what());
  }
}

}  // namespace

std::unique_ptr<LinearSolver> make_band_cholesky_cpu(const SolverOptions& options) {
  return make_on(options, "openmp", band::Schedule::tasks);
}

// cuBLAS for the products (the bulk of the work); the diagonal-tile kernels are the project's.
std::unique_ptr<LinearSolver> make_band_cholesky_cuda(const SolverOptions& options) {
  return make_on(options, "cublas", band::Schedule::in_order);
}

}  // namespace fem

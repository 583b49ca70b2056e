#include "solvers/direct/band_cholesky_solver.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "kernels/dense_registry.hpp"
#include "solvers/direct/available_memory.hpp"
#include "solvers/direct/iterative_refinement.hpp"
#include "solvers/progress_meter.hpp"
#include "support/first_failure.hpp"
#include "support/stopwatch.hpp"
#include "kernels/device_queries.hpp"
#include "solvers/direct/direct_kernels.hpp"

namespace fem::band {

namespace {

// How many rows of the band go up at once: 32 MiB of them, so the host never holds the band whole.
template <class T>
index_t upload_chunk(const BandLayout& layout) {
  return std::max<index_t>(1, (index_t{32} << 20) / (layout.pitch() * index_t{sizeof(T)}));
}

// Rows [0, to.layout.n) of the band of `matrix` (in `layout`) uploaded into `to`.
template <class T>
void upload_band_rows(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout,
                      const BandOnBackend<T>& to) {
  const index_t chunk = upload_chunk<T>(layout), rows = to.layout.n;
  std::vector<T> staged(static_cast<std::size_t>(std::min(chunk, rows) * layout.pitch()));
  for (index_t first = 0; first < rows; first += chunk) {
    const index_t last = std::min(rows, first + chunk);
    fill_band_rows(matrix, layout, first, last, staged.data());
    backend.upload(staged.data(), layout.pitch(), to.storage.block(first, 0, last - first, layout.pitch()));
  }
}

std::string band_description(const BandLayout& layout, std::size_t element_bytes) {
  return std::to_string(layout.n) + " equations, half-bandwidth " + std::to_string(layout.bandwidth) + " and block " +
         std::to_string(layout.block) + " (" + std::to_string(element_bytes * 8) + "-bit)";
}

}  // namespace

template <class T>
BandOnBackend<T> load_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout) {
  require_memory(backend, layout.elements() * sizeof(T), "the band of " + band_description(layout, sizeof(T)));
  BandOnBackend<T> band{layout, backend.allocate<T>(layout.n, layout.pitch())};
  upload_band_rows(backend, matrix, layout, band);
  return band;
}

template <class T>
TwistedBand<T> load_twisted_band(kernels::DenseBackend& backend, const CsrMatrix& matrix, const BandLayout& layout,
                                 const TwistedSplit& split) {
  require_memory(backend, twisted_bytes(layout, sizeof(T)),
                 "the two-sided band of " + band_description(layout, sizeof(T)) + " cut at row " +
                     std::to_string(split.m));
  TwistedBand<T> band = allocate_twisted<T>(backend, layout, split);
  upload_band_rows(backend, matrix, layout, band.top);
  const BandOnBackend<T>& bottom = band.bottom;
  reflected_band_rows<T>(matrix, layout, split.m, upload_chunk<T>(layout), [&](index_t first, index_t rows, const T* data) {
    backend.upload(data, layout.pitch(), bottom.storage.block(first, 0, rows, layout.pitch()));
  });
  return band;
}

namespace {

// B uploaded in T, solved in place by `substitute_in_place`, downloaded.
template <class T, class Substitute>
std::vector<double> solve_uploaded(kernels::DenseBackend& backend, index_t n, std::span<const double> rhs, index_t r,
                                   Substitute&& substitute_in_place) {
  const std::vector<T> b(rhs.begin(), rhs.end());
  const auto x = backend.upload(b.data(), n, r, r);
  substitute_in_place(x);
  std::vector<T> solved(b.size());
  backend.download(x, solved.data(), r);
  return {solved.begin(), solved.end()};
}

}  // namespace

template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const BandOnBackend<T>& factor,
                                   std::span<const double> rhs, index_t r) {
  return solve_uploaded<T>(backend, factor.layout.n, rhs, r, [&](const kernels::DeviceMatrix<T>& x) {
    if (backend.uses_host_memory() && r < 8) {
      // A few right-hand sides: the substitution is memory-bound and made of many small tile
      // solves; one thread does it without a fork/join per tile (nested regions run inline).
      FirstFailure failure;
#pragma omp parallel num_threads(1)
      failure.run([&] { substitute(backend, factor, x); });
      failure.rethrow_if_failed();
    } else {
      substitute(backend, factor, x);
    }
  });
}

template <class T>
std::vector<double> solve_factored(kernels::DenseBackend& backend, const TwistedBand<T>& factor,
                                   std::span<const double> rhs, index_t r) {
  return solve_uploaded<T>(backend, factor.split.n, rhs, r,
                           [&](const kernels::DeviceMatrix<T>& x) { substitute_twisted(backend, factor, x); });
}

namespace {

// Runs `factorise`; kernels::NotPositiveDefinite becomes SolveFailure naming the equation.
template <class T, class Factorise>
void pivot_or_fail(Factorise&& factorise) {
  try {
    factorise();
  } catch (const kernels::NotPositiveDefinite& e) {
    throw SolveFailure("band Cholesky (" + std::to_string(sizeof(T) * 8) + "-bit): the pivot of equation " +
                           std::to_string(e.column()) + " is not positive: the matrix is not positive definite",
                       e.column());
  }
}

}  // namespace

template <class T>
void factor_or_fail(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule,
                    const ColumnsDone& columns_done) {
  pivot_or_fail<T>([&] { factor(backend, band, schedule, columns_done); });
}

template BandOnBackend<double> load_band<double>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&);
template BandOnBackend<float> load_band<float>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&);
template std::vector<double> solve_factored<double>(kernels::DenseBackend&, const BandOnBackend<double>&,
                                                    std::span<const double>, index_t);
template std::vector<double> solve_factored<float>(kernels::DenseBackend&, const BandOnBackend<float>&,
                                                   std::span<const double>, index_t);
template std::vector<double> solve_factored<double>(kernels::DenseBackend&, const TwistedBand<double>&,
                                                    std::span<const double>, index_t);
template std::vector<double> solve_factored<float>(kernels::DenseBackend&, const TwistedBand<float>&,
                                                   std::span<const double>, index_t);
template TwistedBand<double> load_twisted_band<double>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&,
                                                       const TwistedSplit&);
template TwistedBand<float> load_twisted_band<float>(kernels::DenseBackend&, const CsrMatrix&, const BandLayout&,
                                                     const TwistedSplit&);
template void factor_or_fail<double>(kernels::DenseBackend&, const BandOnBackend<double>&, Schedule, const ColumnsDone&);
template void factor_or_fail<float>(kernels::DenseBackend&, const BandOnBackend<float>&, Schedule, const ColumnsDone&);

}  // namespace fem::band

namespace fem {

namespace {

using band::index_t;
// A factor and the back-end that holds it (and substitutes with it): one-sided or two-sided.
template <class T>
struct Factor {
  kernels::DenseBackend* backend;
  std::variant<band::BandOnBackend<T>, band::TwistedBand<T>> band;

  // X for the r right-hand sides stored one after another in `rhs`, the same way round: one block
  // substitution (solve_factored takes them row-major).
  std::vector<double> solve(std::span<const double> rhs, index_t r) const {
    const auto n = static_cast<index_t>(rhs.size()) / r;
    std::vector<double> b(rhs.size());
    for (index_t k = 0; k < r; ++k)
      for (index_t i = 0; i < n; ++i) b[i * r + k] = rhs[k * n + i];
    const auto x = std::visit([&](const auto& f) { return band::solve_factored(*backend, f, b, r); }, band);
    std::vector<double> solved(x.size());
    for (index_t k = 0; k < r; ++k)
      for (index_t i = 0; i < n; ++i) solved[k * n + i] = x[i * r + k];
    return solved;
  }
  std::size_t bytes() const {
    if (const auto* twisted = std::get_if<band::TwistedBand<T>>(&band)) return twisted->bytes();
    return std::get<band::BandOnBackend<T>>(band).layout.elements() * sizeof(T);
  }
};

// Whether the band is long enough against its width for the two-sided factorisation on the device.
bool may_twist(const band::BandLayout& layout) {
  return layout.bandwidth >= 1 && layout.n >= band::kTwistedFromLength * layout.bandwidth;
}

// The split of a two-sided factorisation on the device, where the band is long enough against its
// width for half the critical path to outweigh the walkers' sharing of the device and the
// separator (n at least kTwistedFromLength kd) and `allowed` bytes of device memory hold its
// layout (kd rows, two kd x kd blocks and the bottom band's alignment more than the one-sided
// band); else none (one-sided).
std::optional<band::TwistedSplit> twisted_split_within(const band::BandLayout& layout, std::size_t element_bytes,
                                                       std::size_t allowed) {
  if (!may_twist(layout) || band::twisted_bytes(layout, element_bytes) > allowed) return std::nullopt;
  return band::balanced_split(layout.n, layout.bandwidth);
}

// The band factored once (in FP32 under mixed precision, in FP64 otherwise or once FP32 has
// failed) where this solver computes; every variant (host, one- or two-sided, persistent or
// streamed on the device) keeps its factor, so all right-hand sides share it. The FP64 ones go
// through one block substitution; under mixed precision each is refined on its own against the
// CSR matrix.
class PreparedBandCholesky final : public PreparedSolver {
 public:
  // `gpu` and its band kernels (CUDA; null on the cpu) and `host` must outlive this.
  PreparedBandCholesky(const SolverOptions& options, Device device, std::size_t device_bytes,
                       kernels::DenseBackend& host, kernels::DenseBackend* gpu, const band::DirectKernels* gpu_kernels,
                       const CsrMatrix& a)
      : options_(options), device_(device), device_bytes_(device_bytes), host_(host), gpu_(gpu),
        gpu_kernels_(gpu_kernels), a_(a),
        layout_(band::make_layout(a, 0)) {
    const bool on_gpu = device_ == Device::Cuda;
    auto& f = setup_.figures;
    // The matrix's band and its work, whatever wider band the device factors (the same figures
    // on every device, for rates that compare).
    f["bandwidth"] = static_cast<double>(layout_.bandwidth);
    f["flops"] = band::cholesky_flops(layout_.n, layout_.bandwidth);
    if (on_gpu) layout_.bandwidth = band::device_bandwidth(layout_.bandwidth, layout_.n);
    layout_.block = band::default_block_size(layout_.bandwidth, on_gpu, on_gpu && may_twist(layout_));
    f["block_size"] = static_cast<double>(layout_.block);
    f["threads"] = on_gpu ? 0 : omp_get_max_threads();
    f["factorisations"] = 0;
    f["precision_fallback"] = 0;
    if (on_gpu) {
      f["device_chunks"] = 0;
      f["two_sided"] = 0;
      f["persistent_kernel"] = 0;
    }
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
    const auto n = static_cast<std::size_t>(a_.rows);
    const Stopwatch watch;
    SolveReport total;
    total.figures["refinement_steps"] = 0;
    std::vector<int> in_double;  // the right-hand sides left to the FP64 factor
    for (int k = 0; k < count; ++k) {
      if (single_) {
        SolveReport one;
        if (refine(a_, rhs.subspan(k * n, n), solution.subspan(k * n, n),
                   [&](std::vector<double>& r) { r = single_->solve(r, 1); }, options_, one)) {
          total.figures["refinement_steps"] =
              std::max(total.figures["refinement_steps"], one.figures["refinement_steps"]);
          add_right_hand_side(total, one);
          continue;
        }
        single_.reset();  // refinement stalled: this and every later right-hand side in FP64
        fall_back();
        const double before = setup_.time_setup_s;
        double_ = factor_in<double>();
        total.time_setup_s += setup_.time_setup_s - before;
      }
      in_double.push_back(k);
    }
    if (!in_double.empty()) {
      std::vector<double> b(in_double.size() * n);
      for (std::size_t j = 0; j < in_double.size(); ++j)
        std::copy_n(rhs.begin() + in_double[j] * n, n, b.begin() + j * n);
      const auto x = double_->solve(b, static_cast<index_t>(in_double.size()));
      for (std::size_t j = 0; j < in_double.size(); ++j) {
        const auto into = solution.subspan(in_double[j] * n, n);
        std::copy_n(x.begin() + j * n, n, into.begin());
        SolveReport one;
        one.residual = relative_residual(a_, rhs.subspan(in_double[j] * n, n), into, residual_);
        one.residual_history = {one.residual};
        add_right_hand_side(total, one);
      }
    }
    total.time_solve_s = watch.seconds() - total.time_setup_s;
    return total;
  }

 private:
  void fall_back() {
    setup_.figures["precision_fallback"] = 1;
    if (options_.progress) options_.progress("mixed precision did not converge: factoring in FP64");
  }

  // The band in T, loaded and factored where this solver computes.
  template <class T>
  Factor<T> load_and_factor(const CsrMatrix& a, const band::BandLayout& chosen, SolveReport& report) {
    band::BandLayout layout = chosen;  // the preparation's: on the device, blocks by the two-sided rule where it may apply
    if (device_ == Device::Cpu) {
      Factor<T> f{&host_, band::load_band<T>(host_, a, layout)};
      ProgressMeter progress(options_);
      band::factor_or_fail(host_, std::get<band::BandOnBackend<T>>(f.band), band::kHostSchedule,
                           [&](index_t done) { progress.steps("columns", done, layout.n); });
      return f;
    }
    const std::size_t allowed =
        device_bytes_ > 0 ? device_bytes_ : kernels::cuda_free_memory() / 10 * 9;
    const auto split = twisted_split_within(layout, sizeof(T), allowed);
    // One-sided after all (the device does not hold the two-sided layout): the one-sided rule's
    // blocks, which also take less memory (b >= 3500: 256 against 384).
    if (!split && layout.block != band::default_block_size(layout.bandwidth, true, false)) {
      layout.block = band::default_block_size(layout.bandwidth, true, false);
      report.figures["block_size"] = static_cast<double>(layout.block);
    }
    const std::size_t bytes = layout.elements() * sizeof(T);
    if (split || bytes <= allowed) {
      const bool persistent = std::is_same_v<T, double> && layout.bandwidth >= 64 &&
                              layout.bandwidth < (split ? band::kTwistedPersistentBelow : band::kPersistentBelow);
      report.figures["two_sided"] = split ? 1 : 0;
      report.figures["persistent_kernel"] = persistent ? 1 : 0;
      // A walker on share `part` of `parts` of the device: the persistent kernel on that share of
      // its blocks; the cublas chain on all of it (the two chains' SYRKs share the multiprocessors).
      const auto walk = [&](const band::BandOnBackend<T>& band, int, int parts) {
        if constexpr (std::is_same_v<T, double>) {
          if (persistent) {
            gpu_kernels_->factor_persistent(band.layout, band.rows(), parts);
            return;
          }
        }
        gpu_kernels_->factor_chain(band.layout, band.rows(), parts);
      };
      if (split) {
        Factor<T> f{gpu_, band::load_twisted_band<T>(*gpu_, a, layout, *split)};
        band::pivot_or_fail<T>([&] { band::factor_twisted<T>(*gpu_, std::get<band::TwistedBand<T>>(f.band), walk); });
        return f;
      }
      Factor<T> f{gpu_, band::load_band<T>(*gpu_, a, layout)};
      band::pivot_or_fail<T>([&] { walk(std::get<band::BandOnBackend<T>>(f.band), 0, 1); });
      return f;
    }
    if (allowed < gpu_kernels_->min_streaming_bytes(layout, sizeof(T)))
      band::require_memory(gpu_kernels_->min_streaming_bytes(layout, sizeof(T)), allowed,
                           "streaming the band (two chunks of half-bandwidth + block rows)", gpu_->description());
    Factor<T> f{&host_, band::load_band<T>(host_, a, layout)};
    int chunks = 0;
    band::pivot_or_fail<T>([&] {
      chunks = gpu_kernels_->factor_streamed(layout, std::get<band::BandOnBackend<T>>(f.band).rows(), allowed);
    });
    report.figures["device_chunks"] = chunks;
    return f;
  }

  // Factors in T; times and sizes go to setup().
  template <class T>
  Factor<T> factor_in() {
    const Stopwatch watch;
    auto factor = load_and_factor<T>(a_, layout_, setup_);
    factor.backend->synchronize();
    setup_.time_setup_s += watch.seconds();
    const std::size_t bytes = factor.bytes();
    setup_.figures["factorisations"] += 1;
    setup_.figures["factor_bytes"] = static_cast<double>(bytes);
    setup_.figures["factor_precision_bits"] = sizeof(T) * 8;
    setup_.memory_bytes = std::max(setup_.memory_bytes, bytes + 3 * static_cast<std::size_t>(a_.rows) * sizeof(double));
    return factor;
  }

  SolverOptions options_;
  Device device_;
  std::size_t device_bytes_;
  kernels::DenseBackend& host_;  // the CPU's tiles; the streamed factor's substitution
  kernels::DenseBackend* gpu_;   // CUDA: the band on the device and its substitution
  const band::DirectKernels* gpu_kernels_;  // ... and its factorisation
  const CsrMatrix& a_;
  band::BandLayout layout_;  // as factored: on the device, its bandwidth rounded up and blocks chosen there
  std::optional<Factor<float>> single_;  // mixed precision, until it fails
  std::optional<Factor<double>> double_;
  std::vector<double> residual_;
};

class BandCholeskySolver final : public LinearSolver {
 public:
  // `device_bytes` (CUDA): device memory the band may take, 0 for 90 % of the free memory.
  BandCholeskySolver(const SolverOptions& options, Device device, std::size_t device_bytes)
      : options_(options), device_(device), device_bytes_(device_bytes), host_(kernels::make_dense_backend("blas")) {
    if (device_ == Device::Cuda) {
      try {
        gpu_ = kernels::make_dense_backend("cublas");
      } catch (const kernels::BackendUnavailable& e) {
        throw SolverUnavailable("band-cholesky on '" + std::string(name_of(options.device)) + "': " + e.what());
      }
      gpu_kernels_ = band::direct_kernels_for(*gpu_);
      if (!gpu_kernels_) throw SolverUnavailable("band-cholesky: the '" + gpu_->name() + "' back-end has no band kernels");
    }
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> solution) override {
    return solve_by_preparing(system, solution);
  }

  std::unique_ptr<PreparedSolver> prepare(const CsrMatrix& matrix, NodeLayout) override {
    return std::make_unique<PreparedBandCholesky>(options_, device_, device_bytes_, *host_, gpu_.get(), gpu_kernels_,
                                                  matrix);
  }

 private:
  SolverOptions options_;
  Device device_;
  std::size_t device_bytes_;
  std::unique_ptr<kernels::DenseBackend> host_;
  std::unique_ptr<kernels::DenseBackend> gpu_;
  const band::DirectKernels* gpu_kernels_ = nullptr;
};

}  // namespace

std::unique_ptr<LinearSolver> make_band_cholesky_cpu(const SolverOptions& options) {
  return std::make_unique<BandCholeskySolver>(options, Device::Cpu, 0);
}

std::unique_ptr<LinearSolver> make_band_cholesky_cuda(const SolverOptions& options) {
  return make_band_cholesky_cuda_within(options, 0);
}

std::unique_ptr<LinearSolver> make_band_cholesky_cuda_within(const SolverOptions& options, std::size_t device_bytes) {
  return std::make_unique<BandCholeskySolver>(options, Device::Cuda, device_bytes);
}

}  // namespace fem

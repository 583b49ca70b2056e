#include "bench/band/band_benchmark.hpp"

#include <cblas.h>
#include <lapacke.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/band/band_test_matrix.hpp"
#include "bench/benchmark_command.hpp"
#include "fem/config.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/available_memory.hpp"
#include "solvers/direct/band_cholesky.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "solvers/direct/blas_backend.hpp"
#include "support/csv_table.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_CUDA
#include "bench/band/band_step_breakdown.hpp"
#include "kernels/cuda/band_cholesky_cuda.hpp"
#include "kernels/cuda/band_cholesky_persistent.hpp"
#endif

namespace fem::bench {

namespace {

using band::index_t;

const std::vector<std::string> known_impls{"openblas", "blas",   "blas-tasks",      "blas-in-order", "blas-look-ahead",
                                           "openmp",   "serial", "cublas", "cublas-streamed", "cuda",
                                           "cuda-persistent"};

constexpr const char* kImplementations = R"(Each point is factored and solved with one right-hand side (on a device: factored only); time_s = factor_s + solve_s
(median of the sums, the repeats interleaved between the implementations); GFLOP/s counts the
factorisation alone. Default half-bandwidths: n/b from 400 down to 5 at n = 20000 (1160 is a
hex27 cantilever's, 1333 is n/15).
Implementations (--impl; default: openblas,blas and, with a device, cublas):
  openblas         LAPACKE_dpbtrf + dpbtrs on OpenBLAS (the reference on the host)
  blas             ours on OpenBLAS tiles, scheduled as the CPU solver does (kHostSchedule)
  blas-tasks       ours, OpenMP tasks over block columns, OpenBLAS on one thread each
  blas-in-order    ours, one OpenBLAS call per operation on all threads
  blas-look-ahead  ours, a team of threads with OpenBLAS on one thread each, the next block column
                   factored while the team updates the rest of the window
  openmp           ours, OpenMP tasks on the project's packed GEMM kernels
  serial           ours, one thread, the project's reference kernels
  cublas           ours on CUDA (the CUDA solver): the block column kernel and cuBLAS SYRK/GEMM on two
                   streams with look-ahead, the band made on the device
  cublas-streamed  the same with the band in host memory streamed through --device-memory of the device
  cuda             ours in order on the project's tiled DGEMM on the GPU
  cuda-persistent  ours on CUDA as one persistent kernel: 64 x 64 tiles, flags between the strips
                   (factor + solve) and the tile updates (FP64 tensor cores), look-ahead by the task
                   order; double only, its own 64-column tiles whatever --blocks says (run once, nb 64)
Speed-up: host implementations against openblas; device ones against blas (else openmp), same n, b.
ratio: a host implementation's time over openblas's (DPBTRF + DPBTRS); the last lines give the
worst ratio over the grid of each.
GPU runs are preceded by an untimed warm-up factorisation; their time includes creating the
cuBLAS handles and streams, as the solver does.)";

struct Options {
  std::vector<index_t> sizes{20000};
  std::vector<index_t> bandwidths{50, 100, 200, 500, 1000, 1160, 1333, 2000, 4000};
  std::vector<index_t> blocks{0};
  std::vector<std::string> impls;
  std::vector<std::string> precisions{"double"};
  double device_gb = 0;
  int threads = 0;
  int repeats = 3;
  double time_limit = 30;
  index_t dgemm = 8192;
  bool breakdown = false;
  std::string csv = "band_benchmark.csv";
};

void add_options(CLI::App& app, Options& o) {
  app.description(
      "Band Cholesky factorisation and solve of a random SPD band matrix, n equations, half-bandwidth b, against "
      "DPBTRF + DPBTRS");
  add_list_option(app, "--n", o.sizes, "sizes", positive_number());
  add_list_option(app, "--bandwidths", o.bandwidths, "half-bandwidths", positive_number());
  add_list_option(app, "--blocks", o.blocks, "block sizes to try (0: the solver's choice from b)",
                  non_negative_number());
  add_list_option(app, "--impl", o.impls, "implementations (below)", CLI::IsMember(known_impls));
  app.add_option("--device-memory", o.device_gb,
                 "GB of device memory for cublas-streamed (default: a quarter of the band)")
      ->check(positive_number());
  add_precision_option(app, o.precisions, "double, float or both (openblas runs in double only)");
  app.add_option("--threads", o.threads, "OpenMP and OpenBLAS threads (default: OpenMP's default)")
      ->check(positive_number());
  add_checked_option(app, "--repeats", o.repeats, "timed runs, interleaved, the median is reported (1 above 1e11 flops)",
                     positive_number());
  add_checked_option(app, "--time-limit", o.time_limit,
                     "skip an implementation at larger sizes once one run took over S s", positive_number());
  add_checked_option(app, "--dgemm", o.dgemm, "measure cuBLAS DGEMM at N x N as the GPU ceiling (0: skip)",
                     non_negative_number());
  app.add_flag("--breakdown", o.breakdown,
               "also time the two chains of one GPU step (block column kernels with their look-ahead; trailing SYRK) "
               "per b and block, alone");
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
  app.footer(kImplementations);
}

bool on_device(const std::string& impl) {
  return impl == "cublas" || impl == "cublas-streamed" || impl == "cuda" || impl == "cuda-persistent";
}

// Rows [first, last) of the lower band, `window` entries left of the diagonal, pitch window + 1.
template <class T>
void fill_rows(index_t first, index_t last, index_t b, index_t window, T* out) {
#pragma omp parallel for schedule(static)
  for (index_t i = first; i < last; ++i) {
    T* row = out + (i - first) * (window + 1);
    for (index_t s = 0; s <= window; ++s) row[s] = static_cast<T>(band_slot(i, s, b, window));
  }
}

// The band on a back-end: made on the device where it is a CUDA one and this build has CUDA,
// else made on the host and uploaded in chunks.
template <class T>
band::BandOnBackend<T> make_band(kernels::DenseBackend& backend, const band::BandLayout& layout) {
  band::require_memory(backend, layout.elements() * sizeof(T), "the benchmark band");
  band::BandOnBackend<T> a{layout, backend.allocate<T>(layout.n, layout.pitch())};
#if FEM_WITH_CUDA
  if (!backend.uses_host_memory()) {
    fill_band_on_device(static_cast<T*>(a.storage.storage->handle()) + a.storage.offset, 0, layout.n,
                        layout.bandwidth, layout.window());
    return a;
  }
#endif
  const index_t chunk = std::max<index_t>(1, (index_t{64} << 20) / (layout.pitch() * index_t{sizeof(T)}));
  std::vector<T> rows(static_cast<std::size_t>(std::min(chunk, layout.n) * layout.pitch()));
  for (index_t first = 0; first < layout.n; first += chunk) {
    const index_t last = std::min(layout.n, first + chunk);
    fill_rows(first, last, layout.bandwidth, layout.window(), rows.data());
    backend.upload(rows.data(), layout.pitch(), a.storage.block(first, 0, last - first, layout.pitch()));
  }
  return a;
}

// The times of one factor-and-solve: the factorisation (the band already in place) and the
// substitution of one right-hand side.
struct Timing {
  double factor_s = 0, solve_s = 0;
  double total() const { return factor_s + solve_s; }
};

// The benchmark's right-hand side, the same for every implementation.
std::vector<double> benchmark_rhs(index_t n) {
  std::vector<double> rhs(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) rhs[static_cast<std::size_t>(i)] = band_entry(i, n + i, 1);
  return rhs;
}

// One factorisation and, on the host, solve of ours (the solve with its copies of the right-hand
// side; on a device the factorisation alone, as the GPU figures have been). `note` gets what the
// reader should know of the run (the chunks of a streamed one).
template <class T>
Timing time_ours(const std::string& impl, kernels::DenseBackend& backend, const band::BandLayout& layout,
                 double device_gb, std::string& note) {
  auto a = make_band<T>(backend, layout);
  backend.synchronize();
  Timing t;
  const Stopwatch factoring;
#if FEM_WITH_CUDA
  if (impl == "cublas") {
    kernels::cuda::factor_on_device(a.layout, a.rows());
  } else if (impl == "cublas-streamed") {
    const std::size_t bytes = device_gb > 0 ? static_cast<std::size_t>(device_gb * (1 << 30))
                                            : layout.elements() * sizeof(T) / 4;
    const int chunks = kernels::cuda::factor_streamed(layout, static_cast<T*>(a.storage.storage->handle()), bytes);
    note = std::to_string(chunks) + " chunks through " + std::to_string(bytes >> 20) + " MiB";
  } else if (impl == "cuda-persistent") {
    if constexpr (!std::is_same_v<T, double>) throw std::invalid_argument("cuda-persistent factors in double only");
    else kernels::cuda::factor_persistent(a.layout, a.rows());
  } else
#endif
  {
    (void)device_gb, (void)note;
    const band::Schedule schedule = impl == "blas"                            ? band::kHostSchedule
                                    : impl == "blas-tasks" || impl == "openmp" ? band::Schedule::tasks
                                    : impl == "blas-look-ahead"                ? band::Schedule::look_ahead
                                                                               : band::Schedule::in_order;
    band::factor(backend, a, schedule);
  }
  backend.synchronize();
  t.factor_s = factoring.seconds();
  if (on_device(impl)) return t;
  const auto rhs = benchmark_rhs(layout.n);
  const Stopwatch solving;
  band::solve_factored(backend, a, rhs, 1);  // as the solver substitutes
  t.solve_s = solving.seconds();
  return t;
}

// LAPACKE_dpbtrf and LAPACKE_dpbtrs (one right-hand side) on OpenBLAS.
Timing time_openblas(index_t n, index_t b) {
  band::require_memory(static_cast<std::size_t>(n * (b + 1)) * sizeof(double), band::host_available_memory(),
                       "the LAPACK band", "the host");
  std::vector<double> ab(static_cast<std::size_t>(n * (b + 1)));
  fill_rows(0, n, b, b, ab.data());  // row i of the lower band = column i of LAPACK's upper band
  auto x = benchmark_rhs(n);
  Timing t;
  const Stopwatch factoring;
  int info = LAPACKE_dpbtrf(LAPACK_COL_MAJOR, 'U', n, b, ab.data(), b + 1);
  t.factor_s = factoring.seconds();
  if (info != 0) throw std::runtime_error("LAPACKE_dpbtrf failed with info " + std::to_string(info));
  const Stopwatch solving;
  info = LAPACKE_dpbtrs(LAPACK_COL_MAJOR, 'U', n, b, 1, ab.data(), b + 1, x.data(), n);
  t.solve_s = solving.seconds();
  if (info != 0) throw std::runtime_error("LAPACKE_dpbtrs failed with info " + std::to_string(info));
  return t;
}

// cuBLAS DGEMM on random operands, median of 5 after a warm-up.
double dgemm_rate(kernels::DenseBackend& backend, index_t size) {
  std::vector<double> host(static_cast<std::size_t>(size * size));
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (auto& v : host) v = u(rng);
  const auto a = backend.upload(host.data(), size, size, size), b = backend.upload(host.data(), size, size, size);
  const auto c = backend.allocate<double>(size, size);
  backend.gemm(kernels::Op::none, kernels::Op::none, 1.0, a, b, 0.0, c);  // warm-up
  backend.synchronize();
  const double t = spread_of(time_each(5, [&] {
                     backend.gemm(kernels::Op::none, kernels::Op::none, 1.0, a, b, 0.0, c);
                     backend.synchronize();
                   })).median;
  return 2.0 * std::pow(static_cast<double>(size), 3) / t / 1e9;
}

std::unique_ptr<kernels::DenseBackend> backend_for(const std::string& impl) {
  if (impl.rfind("blas", 0) == 0) return std::make_unique<band::BlasBackend>();
  if (impl == "cublas" || impl == "cublas-streamed" || impl == "cuda-persistent") {
    // cublas-streamed keeps the band in host memory and moves it itself.
    auto device = kernels::make_dense_backend("cublas");  // checks that a device is there
    if (impl != "cublas-streamed") return device;
    return std::make_unique<band::BlasBackend>();
  }
  return kernels::make_dense_backend(impl);
}

#if FEM_WITH_CUDA
// One GPU step taken apart: the panel stream's chain of block column kernels against the
// update stream's trailing SYRK; the step takes about the larger of the two.
void print_step_breakdown(const Options& o) {
  std::cout << "\nOne GPU step, each operation alone (us a call, FP64):\n"
            << "     b    nb  first_kernel  panel_chain  trailing_syrk  us/column\n";
  for (const index_t b : o.bandwidths)
    for (const index_t block0 : o.blocks) {
      const index_t nb = block0 > 0 ? std::min(block0, b) : band::default_block_size(b, true);
      const StepBreakdown t = time_step_parts(b, nb);
      std::printf("%6lld %5lld %13.1f %12.1f %14.1f %10.3f\n", static_cast<long long>(b), static_cast<long long>(nb),
                  t.first_kernel_us, t.panel_us, t.trailing_us,
                  std::max(t.panel_us, t.trailing_us) / static_cast<double>(nb));
    }
  if (std::find(o.impls.begin(), o.impls.end(), "cuda-persistent") == o.impls.end()) return;
  std::cout << "\ncuda-persistent, the critical path of a step (64 columns) in the kernel, median over steps "
               "(us; global timer):\n"
            << "     b  step  (strip waited, counts late)  strip: loads left_update slab1 slab1->right slab2 flag  "
               "->next strip  (SM GHz)\n";
  for (const index_t b : o.bandwidths) {
    const PersistentStepBreakdown t = time_persistent_steps(b);
    std::printf("%6lld %5.1f %14.1f %12.1f %7.1f: %5.1f %11.1f %5.1f %11.1f %5.1f %4.1f %12.1f %9.2f\n",
                static_cast<long long>(b), t.step_us, t.strip_waited_us, t.counts_late_us, t.strip_us, t.strip_loads_us, t.strip_left_update_us,
                t.strip_first_slab_us, t.strip_first_update_us, t.strip_second_slab_us, t.strip_flag_us, t.to_next_us,
                t.clock_ghz);
  }
}
#endif

// One implementation at one block size, at one (n, b, precision) of the grid.
struct Row {
  index_t block = 0;
  std::string impl;
  std::vector<double> factor_s, solve_s, total_s;  // one a repeat
  Timing median;
  double time_s = 0;  // median of total_s
  std::string against;  // the reference of the speed-up
  double gflops = 0, speedup = 0, ratio = 0, of_dgemm = 0;
  std::string note;
};

void run(Options o) {
  if (o.threads > 0) omp_set_num_threads(o.threads);
  const int threads = omp_get_max_threads();
  openblas_set_num_threads(threads);
  if (o.impls.empty()) {
    o.impls = {"openblas", "blas"};
    if (kernels::dense_backend_status("cublas").available) o.impls.push_back("cublas");
  }
  // References first, so that every later row has its speed-up.
  std::sort(o.impls.begin(), o.impls.end(), [&](const std::string& a, const std::string& b) {
    return std::find(known_impls.begin(), known_impls.end(), a) < std::find(known_impls.begin(), known_impls.end(), b);
  });
  std::map<std::string, std::unique_ptr<kernels::DenseBackend>> backends;
  for (const auto& impl : o.impls) {
    if (impl == "openblas") continue;
    try {
      backends[impl] = backend_for(impl);
    } catch (const std::exception& e) {
      std::cerr << "skipping " << impl << ": " << e.what() << "\n";
    }
  }
  double dgemm = 0;
  std::unique_ptr<kernels::DenseBackend> cublas;
  if (o.dgemm > 0 && kernels::dense_backend_status("cublas").available &&
      std::any_of(o.impls.begin(), o.impls.end(), on_device)) {
    cublas = kernels::make_dense_backend("cublas");
    dgemm = dgemm_rate(*cublas, o.dgemm);
  }
  std::cout << "band Cholesky factorisation, " << threads << " threads; OpenBLAS " << openblas_get_config();
  for (const auto& [name, be] : backends) std::cout << "; " << name << ": " << be->description();
  if (dgemm > 0) std::cout << "; cuBLAS DGEMM " << o.dgemm << ": " << dgemm << " GFLOP/s";
  std::cout << "\nflops counted exactly (sum over columns of (r + 1)^2, about n (b + 1)^2)\n\n";
  std::cout << "        n      b    nb  impl             prec   factor_s   solve_s    time_s    GFLOP/s  "
               "speed-up  %DGEMM  ratio\n";

  std::map<std::string, bool> over_limit, warmed;
  std::map<std::string, double> worst_ratio;  // host impl -> largest time / DPBTRF+DPBTRS time
  CsvTable csv({"n", "bandwidth", "block", "impl", "precision", "threads", "factor_s", "solve_s", "time_s", "gflops",
                "speedup", "speedup_against", "of_dgemm", "ratio_to_dpbtrf", "note"});
  for (const index_t n : o.sizes)
    for (const index_t b0 : o.bandwidths)
      for (const auto& precision : o.precisions) {
        const index_t b = std::min(b0, n - 1);
        const double flops = band::cholesky_flops(n, b);
        std::vector<Row> rows;
        for (const auto& impl : o.impls)
          for (const index_t block0 : impl == "openblas"          ? std::vector<index_t>{0}
                                      : impl == "cuda-persistent" ? std::vector<index_t>{64}
                                                                  : o.blocks) {
            if (impl == "openblas" && precision != "double") continue;
            Row row;
            row.impl = impl;
            row.block = impl == "openblas" ? 32 : block0 > 0 ? std::min(block0, std::max<index_t>(b, 1))
                                            : band::default_block_size(b, on_device(impl));
            if (impl != "openblas" && !backends.count(impl)) row.note = "not available";
            else if (over_limit[impl]) row.note = "skipped: an earlier size exceeded --time-limit";
            rows.push_back(row);
          }
        // The repeats interleave the implementations, so that a busy spell of the machine
        // slows all of them alike rather than one.
        const int repeats = flops > 1e11 ? 1 : o.repeats;
        for (int r = 0; r < repeats; ++r)
          for (auto& row : rows) {
            if (!row.note.empty() && row.factor_s.empty()) continue;  // unavailable, skipped or failed
            try {
              const band::BandLayout layout{n, b, row.block};
              const auto run = [&](const band::BandLayout& l) {
                auto& be = *backends[row.impl];
                return precision == "double" ? time_ours<double>(row.impl, be, l, o.device_gb, row.note)
                                             : time_ours<float>(row.impl, be, l, o.device_gb, row.note);
              };
              if (on_device(row.impl) && !warmed[row.impl + precision]) {  // module loading, first handles
                run(band::BandLayout{std::min<index_t>(n, 4 * (b + row.block)), b, row.block});
                warmed[row.impl + precision] = true;
              }
              const Timing t = row.impl == "openblas" ? time_openblas(n, b) : run(layout);
              row.factor_s.push_back(t.factor_s);
              row.solve_s.push_back(t.solve_s);
              row.total_s.push_back(t.total());
            } catch (const std::exception& e) {
              row.note = e.what();
              row.factor_s.clear(), row.solve_s.clear(), row.total_s.clear();
            }
          }
        // The first block size measured of a reference stands for it.
        const auto reference = [&](const std::string& impl) {
          for (const auto& row : rows)
            if (row.impl == impl && !row.total_s.empty()) return spread_of(row.total_s).median;
          return 0.0;
        };
        const double dpbtrf = reference("openblas");
        for (auto& row : rows) {
          if (!row.factor_s.empty()) {
            row.median = {spread_of(row.factor_s).median, spread_of(row.solve_s).median};
            row.time_s = spread_of(row.total_s).median;
            row.gflops = flops / row.median.factor_s / 1e9;
            if (row.time_s > o.time_limit) over_limit[row.impl] = true;
            const std::string against = !on_device(row.impl) ? "openblas" : reference("blas") > 0 ? "blas" : "openmp";
            if (row.impl != against && reference(against) > 0) {
              row.speedup = reference(against) / row.time_s;
              row.against = against;
            }
            if (!on_device(row.impl) && row.impl != "openblas" && dpbtrf > 0) {
              row.ratio = row.time_s / dpbtrf;
              worst_ratio[row.impl] = std::max(worst_ratio[row.impl], row.ratio);
            }
            if (on_device(row.impl) && dgemm > 0) row.of_dgemm = row.gflops / dgemm;
          }
          char line[640];
          std::snprintf(line, sizeof line, "%9lld %6lld %5lld  %-15s  %-6s %9.4f %9.4f %9.4f %10.1f %9s %7s %6s  %s",
                        static_cast<long long>(n), static_cast<long long>(b), static_cast<long long>(row.block),
                        row.impl.c_str(), precision.c_str(), row.median.factor_s, row.median.solve_s, row.time_s,
                        row.gflops, row.speedup > 0 ? (std::to_string(row.speedup).substr(0, 5) + "x").c_str() : "",
                        row.of_dgemm > 0 ? (std::to_string(100 * row.of_dgemm).substr(0, 4) + "%").c_str() : "",
                        row.ratio > 0 ? std::to_string(row.ratio).substr(0, 5).c_str() : "", row.note.c_str());
          std::cout << line << std::endl;
          csv.add({n, b, row.block, row.impl, precision, threads, row.median.factor_s, row.median.solve_s, row.time_s,
                   row.gflops, row.speedup, row.against, row.of_dgemm, row.ratio, row.note});
        }
      }
  for (const auto& [impl, worst] : worst_ratio)
    std::cout << "worst ratio over the grid (" << impl << " time / DPBTRF+DPBTRS time, 1.0 or less is parity): "
              << worst << "\n";
  write_rows(csv, o.csv);
  if (o.breakdown) {
#if FEM_WITH_CUDA
    const auto cublas = kernels::dense_backend_status("cublas");
    if (cublas.available) print_step_breakdown(o);
    else std::cout << "--breakdown skipped: " << cublas.reason << "\n";
#else
    std::cout << "--breakdown skipped: this build has no CUDA\n";
#endif
  }
}

}  // namespace

int run_band_benchmark(int argc, char** argv) { return run_benchmark<Options>("band", argc, argv, add_options, run); }

}  // namespace fem::bench

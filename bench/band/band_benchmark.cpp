#include "bench/band/band_benchmark.hpp"

#include <cblas.h>
#include <lapacke.h>
#include <omp.h>
#include <stdlib.h>        // getloadavg
#include <sys/resource.h>  // getrusage
#include <unistd.h>        // sysconf

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bench/band/band_test_matrix.hpp"
#include "bench/benchmark_command.hpp"
#include "fem/config.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/available_memory.hpp"
#include "support/host_memory.hpp"
#include "solvers/direct/band_cholesky.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "kernels/cpu/blas_backend.hpp"
#include "solvers/direct/twisted_band_cholesky.hpp"
#include "support/csv_table.hpp"
#include "support/first_failure.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_CUDA
#include "bench/band/band_step_breakdown.hpp"
#include "kernels/cuda/band_cholesky_cuda.hpp"
#include "kernels/cuda/band_cholesky_persistent.hpp"
#include "kernels/cuda/device_buffer.hpp"
#endif

namespace fem::bench {

namespace {

using band::index_t;

const std::vector<std::string> known_impls{"openblas", "blas",   "blas-tasks",      "blas-in-order", "blas-look-ahead",
                                           "openmp",   "serial", "cublas", "cublas-left", "cublas-right", "cublas-ahead",
                                           "cublas-solve", "cublas-pair", "cublas-streamed", "cuda", "cuda-persistent",
                                           "cublas-twisted", "cuda-twisted"};

constexpr const char* kImplementations = R"(Each point is factored and solved with one right-hand side (on a device: factored only); time_s = factor_s + solve_s
(median of the sums, the repeats interleaved between the implementations), min_s the fastest
repeat's sum; GFLOP/s counts the factorisation alone (median). Before each timed run the process
sleeps --settle seconds (host implementations), so that no thread left spinning by the band's fill
(OpenMP) or by the previous run (OpenBLAS's workers spin about 0.1 s after a call) takes a core
from the next.
Default half-bandwidths: n/b from 400 down to 5 at n = 20000 (1160 is a hex27 cantilever's, 1333
is n/15).
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
                   streams with look-ahead, the band made on the device; its panel method by the solver's
                   rule (device_schedule)
  cublas-left      the same with every panel by block column kernels (64 columns each), left-looking
  cublas-right     the same by block column kernels with cuBLAS updates of the columns right of each
  cublas-ahead     cublas-right with only the next kernel's columns updated before it, the rest beside it
  cublas-solve     cublas-ahead with each kernel solving only the next diagonal block's rows, the others
                   solved (and the next kernel's columns updated) by the project's solve_under_diagonal
  cublas-pair      cublas on the band's leading and trailing halves as two bands, from two host threads at once
                   (each by the rule, --update-parts 2: each trailing SYRK on its own half of the SMs): what two
                   factorisations at once get of the device (the two-sided factorisation's premise; flops
                   counted as for the whole band, about b/3n more than the halves do)
  cublas-streamed  the same with the band in host memory streamed through --device-memory of the device
  cuda             ours in order on the project's tiled DGEMM on the GPU
  cuda-persistent  ours on CUDA as one persistent kernel: 64 x 64 tiles, flags between the strips
                   (factor + solve) and the tile updates (FP64 tensor cores), look-ahead by the task
                   order; double only, its own 64-column tiles whatever --blocks says (run once, nb 64)
  cublas-twisted   two-sided (solvers/direct/twisted_band_cholesky.hpp): the band made in the two-sided layout
                   (cut at the middle, its bottom half reflected; n + kd rows), its top factored top-down and
                   its bottom bottom-up by two cublas chains from two host threads at once, then the kd x kd
                   separator; the note gives the split and the times of A_SS's copy, the walkers and the separator
  cuda-twisted     the same with two cuda-persistent kernels, each on half of the device's blocks, and
                   a third on the separator (double only, nb 64)
Speed-up: host implementations against openblas; device ones against blas (else openmp), same n, b.
ratio: a host implementation's time over openblas's (DPBTRF + DPBTRS), of the medians (ratio) and of
the fastest repeats (ratio_min); "<=1.0" says which of the two are at most 1.0. On a shared machine
other processes only add time, so the fastest of the interleaved repeats is the estimate of the
code's own time; the median shows how far the neighbours moved it. The last lines give the worst
of each ratio over the grid and the load average at the start and the end; "others" is the number of
cores that other processes kept busy while the point ran (from /proc/stat, 0 on a quiet machine).
GPU runs are preceded by an untimed warm-up factorisation; their time includes creating the
cuBLAS handles and streams, as the solver does.)";

struct Options {
  std::vector<index_t> sizes{20000};
  std::vector<index_t> bandwidths{50, 100, 200, 500, 1000, 1160, 1333, 2000, 4000};
  std::vector<index_t> blocks{0};
  std::vector<std::string> impls;
  std::vector<int> panel_sms;  // empty: the solver's rule
  std::vector<int> after_look_ahead;  // likewise
  std::vector<int> strip_blocks;      // cuda-persistent, cuda-twisted: empty, the kernel's split
  std::vector<int> update_workers;    // likewise: empty, the kernel's default
  std::vector<int> update_parts;      // cublas-pair, cublas-twisted: empty, the SYRKs of both chains share the device
  std::vector<std::string> panel_methods;  // cublas-pair, cublas-twisted: empty, the rule's
  std::vector<std::string> precisions{"double"};
  double device_gb = 0;
  int threads = 0;
  int repeats = 3;
  double single_run_flops = 1e11;
  double settle = 0.2;
  double time_limit = 30;
  index_t dgemm = 8192;
  bool breakdown = false;
  bool update_rates = false;
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
  add_list_option(app, "--panel-sms", o.panel_sms,
                  "cublas and its variants: multiprocessors kept from the trailing SYRK "
                  "for the panel, by a green context (default: the solver's rule)",
                  non_negative_number());
  add_list_option(app, "--trailing-after-look-ahead", o.after_look_ahead,
                  "cublas and its variants (blocks wider than one kernel): the trailing update beside the look-ahead "
                  "(0) or after it (1) (default: the solver's rule)",
                  CLI::Range(0, 1));
  add_list_option(app, "--strip-blocks", o.strip_blocks,
                  "cuda-persistent and cuda-twisted: blocks of each persistent kernel that take the strips "
                  "(default: the kernel's split by the work)",
                  positive_number());
  add_list_option(app, "--update-workers", o.update_workers,
                  "cuda-persistent and cuda-twisted: workers of each update block (1, 2 or 3; default: the kernel's)",
                  CLI::Range(1, 3));
  add_list_option(app, "--update-parts", o.update_parts,
                  "cublas-pair and cublas-twisted: 1, both chains' trailing SYRKs on every multiprocessor the panels "
                  "leave; 2, each on its own half of them (green contexts) (default 1)",
                  CLI::Range(1, 2));
  add_list_option(app, "--panel-method", o.panel_methods,
                  "cublas-pair and cublas-twisted: the chains' panel, as cublas-left, -right, -ahead or -solve "
                  "factor theirs (default: the rule's)",
                  CLI::IsMember({"left", "right", "ahead", "solve"}));
  app.add_option("--device-memory", o.device_gb,
                 "GB of device memory for cublas-streamed (default: a quarter of the band, at least what streaming needs)")
      ->check(positive_number());
  add_precision_option(app, o.precisions, "double, float or both (openblas runs in double only)");
  app.add_option("--threads", o.threads, "OpenMP and OpenBLAS threads (default: OpenMP's default)")
      ->check(positive_number());
  add_checked_option(app, "--repeats", o.repeats,
                     "timed runs, interleaved, the median and the fastest are reported (1 above --single-run-flops)",
                     positive_number());
  add_checked_option(app, "--single-run-flops", o.single_run_flops,
                     "points of more flops than this are run once (points whose implementations all run on a "
                     "device: of more than 1000 times this)",
                     positive_number());
  add_checked_option(app, "--settle", o.settle,
                     "seconds of sleep before each timed run, for threads left spinning to go idle",
                     non_negative_number());
  add_checked_option(app, "--time-limit", o.time_limit,
                     "skip an implementation at larger sizes once one run took over S s", positive_number());
  add_checked_option(app, "--dgemm", o.dgemm, "measure cuBLAS DGEMM at N x N as the GPU ceiling (0: skip)",
                     non_negative_number());
  app.add_flag("--breakdown", o.breakdown,
               "also time the two chains of one GPU step (block column kernels with their look-ahead; trailing SYRK) "
               "per b and block, alone, and with cublas-pair two bands' steps side by side");
  app.add_flag("--update-rates", o.update_rates,
               "also time a step's trailing update alone, per b and block, by cuBLAS DSYRK and DSYRKX beside a DGEMM "
               "of the square, on the whole device and with the --panel-sms (default 8) kept out");
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
  app.footer(kImplementations);
}

// The implementations of the CUDA solver's factorisation with the band held on the device.
bool cublas_chain(const std::string& impl) {
  return impl == "cublas" || impl == "cublas-left" || impl == "cublas-right" || impl == "cublas-ahead" ||
         impl == "cublas-solve" || impl == "cublas-pair";
}

bool twisted(const std::string& impl) { return impl == "cublas-twisted" || impl == "cuda-twisted"; }

bool on_device(const std::string& impl) {
  return cublas_chain(impl) || twisted(impl) || impl == "cublas-streamed" || impl == "cuda" ||
         impl == "cuda-persistent";
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

// The host memory every host run of one point factors in, DPBTRF's and ours alike. The same
// factorisation ran at two steady speeds, 0.48 s or 0.75 s (DPBTRF, b = 1333), depending on the
// physical pages a fresh allocation got (a process that kept getting the slow ones back kept
// the slow speed); bands allocated per run gave each side its own draw, so the ratio moved by
// up to 1.5x with the machine idle. In one arena both sides run on the same pages.
class HostArena {
 public:
  explicit HostArena(std::size_t bytes) : bytes_(bytes), memory_(std::aligned_alloc(64, round_up(bytes))) {
    if (bytes > 0 && !memory_) throw std::bad_alloc();
  }
  template <class T>
  T* as(std::size_t elements) const {
    if (elements * sizeof(T) > bytes_) throw std::logic_error("the benchmark arena is smaller than a band");
    return static_cast<T*>(memory_.get());
  }

 private:
  static std::size_t round_up(std::size_t bytes) { return (std::max<std::size_t>(bytes, 1) + 63) / 64 * 64; }
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::size_t bytes_;
  std::unique_ptr<void, Free> memory_;
};

// The band on a back-end: made on the device where it is a CUDA one and this build has CUDA,
// else made in the point's host arena.
template <class T>
band::BandOnBackend<T> make_band(kernels::DenseBackend& backend, const band::BandLayout& layout,
                                 const HostArena& arena) {
  if (backend.uses_host_memory()) {
    T* rows = arena.as<T>(layout.elements());
    fill_rows(0, layout.n, layout.bandwidth, layout.window(), rows);
    return {layout, backend.wrap(rows, layout.n, layout.pitch(), layout.pitch())};
  }
  band::require_memory(backend, layout.elements() * sizeof(T), "the benchmark band");
  band::BandOnBackend<T> a{layout, backend.allocate<T>(layout.n, layout.pitch())};
#if FEM_WITH_CUDA
  if (!backend.uses_host_memory()) {
    fill_band_on_device(a.rows(), 0, layout.n, layout.bandwidth, layout.window());
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

// Sleeps before a timed run: the band's fill leaves OpenMP's threads spinning (GOMP_SPINCOUNT), and
// a run on OpenBLAS's threads leaves them spinning for about 0.1 s (its THREAD_TIMEOUT, 2^28
// cycles); either would take a core from the implementation timed next. Both sides wait alike.
void settle(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

// The load average over the last minute (other processes, and this one's threads).
double load_average() {
  double load[1] = {-1};
  return getloadavg(load, 1) == 1 ? load[0] : -1;
}

// The cores other processes kept busy between start() and cores() (from /proc/stat's busy time
// less this process's CPU time, over the wall time; -1 where /proc/stat cannot be read): the
// neighbours' share of the machine while a point ran.
class OtherProcesses {
 public:
  void start() { busy_ = busy_s(), own_ = own_s(), wall_ = Stopwatch(); }
  double cores() const {
    const double busy = busy_s();
    if (busy < 0 || busy_ < 0) return -1;
    return std::max(0.0, (busy - busy_) - (own_s() - own_)) / wall_.seconds();
  }

 private:
  // Seconds of CPU time spent by all processes since boot: /proc/stat's first line, less idle and iowait.
  static double busy_s() {
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f) return -1;
    unsigned long long v[8] = {};
    const int read = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
                                 &v[5], &v[6], &v[7]);
    std::fclose(f);
    if (read != 8) return -1;
    const unsigned long long busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];  // less idle (3), iowait (4)
    return static_cast<double>(busy) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  // This process's CPU time, user and system, all threads.
  static double own_s() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  double busy_ = -1, own_ = 0;
  Stopwatch wall_;
};

// What a row of the cublas chain forces of the CUDA schedule (device_schedule); -1 and 0: the rule's.
struct ScheduleForced {
  int panel_sms = -1;  // multiprocessors kept for the panel
  int after_look_ahead = -1;  // the trailing update after the look-ahead (1) or beside it (0)
  int strip_blocks = 0;       // persistent kernels: blocks taking the strips (0: the kernel's split)
  int update_workers = 0;     // persistent kernels: workers an update block (0: the kernel's)
  int update_parts = 1;       // two chains at once: shares of the multiprocessors for the two trailing SYRKs
  std::string panel_method;   // two chains at once: left, right, ahead or solve (empty: the rule's)

  std::string describe() const {
    std::string s = panel_sms < 0 ? "" : std::to_string(panel_sms) + " SMs kept for the panel";
    const auto add = [&](const std::string& what) { s += (s.empty() ? "" : ", ") + what; };
    if (after_look_ahead >= 0) add(after_look_ahead ? "trailing after the look-ahead" : "trailing beside it");
    if (strip_blocks > 0) add(std::to_string(strip_blocks) + " strip blocks");
    if (update_workers > 0) add(std::to_string(update_workers) + " update workers a block");
    if (update_parts > 1) add("the SMs halved between the two chains' SYRKs");
    if (!panel_method.empty()) add("panel " + panel_method);
    return s;
  }
};

// The benchmark's right-hand side, the same for every implementation.
std::vector<double> benchmark_rhs(index_t n) {
  std::vector<double> rhs(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) rhs[static_cast<std::size_t>(i)] = band_entry(i, n + i, 1);
  return rhs;
}

#if FEM_WITH_CUDA
// The CUDA schedule of a cublas_chain row: the solver's rule, but for the panel method its impl
// forces and what `forced` says.
kernels::cuda::DeviceSchedule schedule_of(const std::string& impl, const band::BandLayout& layout,
                                          const ScheduleForced& forced, bool beside_another = false) {
  kernels::cuda::DeviceSchedule schedule = kernels::cuda::device_schedule(layout, beside_another);
  // Two chains' rows name their panel method apart (--panel-method), the other rows by their impl.
  const std::string method = forced.panel_method.empty() ? impl : "cublas-" + forced.panel_method;
  if (method == "cublas-left") schedule.panel = kernels::cuda::PanelMethod::left_looking_kernels;
  if (method == "cublas-right") schedule.panel = kernels::cuda::PanelMethod::right_looking_kernels;
  if (method == "cublas-ahead") schedule.panel = kernels::cuda::PanelMethod::right_looking_ahead;
  if (method == "cublas-solve") schedule.panel = kernels::cuda::PanelMethod::right_looking_solve;
  if (forced.panel_sms >= 0) schedule.panel_sms = forced.panel_sms;
  if (forced.after_look_ahead >= 0) schedule.trailing_after_look_ahead = forced.after_look_ahead == 1;
  return schedule;
}

// The schedule of chain `part` (0 or 1) of two factored at once (cublas-pair's halves, cublas-twisted's
// walkers, --breakdown's pair): cublas's beside another, its trailing SYRK on its own share of the
// multiprocessors where --update-parts asks for shares.
kernels::cuda::DeviceSchedule pair_schedule(const band::BandLayout& layout, const ScheduleForced& forced, int part) {
  kernels::cuda::DeviceSchedule schedule = schedule_of("cublas", layout, forced, true);
  if (forced.update_parts > 1) {
    schedule.update_part = part;
    schedule.update_parts = forced.update_parts;
  }
  return schedule;
}
#endif

#if FEM_WITH_CUDA
// The walkers of a twisted impl: persistent kernels on their share of the device's blocks, or
// cublas chains by the rule (schedule_of as cublas's).
template <class T>
band::Walker<T> twisted_walker(const std::string& impl, const ScheduleForced& forced) {
  if (impl == "cuda-twisted") {
    if constexpr (!std::is_same_v<T, double>) {
      throw std::invalid_argument("cuda-twisted factors in double only");
    } else {
      return [forced](const band::BandOnBackend<double>& half, int, int parts) {
        kernels::cuda::factor_persistent(half.layout, half.rows(), nullptr,
                                         {kernels::cuda::persistent_blocks() / parts, parts > 1 ? forced.strip_blocks : 0,
                                          forced.update_workers});
      };
    }
  }
  return [forced](const band::BandOnBackend<T>& half, int part, int parts) {
    kernels::cuda::factor_on_device(half.layout, half.rows(),
                                    parts > 1 ? pair_schedule(half.layout, forced, part)
                                              : schedule_of("cublas", half.layout, forced));
  };
}
#endif

// The --panel-sms, --trailing-after-look-ahead, --strip-blocks, --update-workers, --update-parts and
// --panel-method of an impl's rows, every combination.
std::vector<ScheduleForced> forced_of(const Options& o, const std::string& impl) {
  const bool chain = cublas_chain(impl) || impl == "cublas-twisted";
  const bool persistent = impl == "cuda-persistent" || impl == "cuda-twisted";
  const bool two_chains = impl == "cublas-pair" || impl == "cublas-twisted";
  const auto or_default = [](bool applies, const std::vector<int>& given, int rule) {
    return applies && !given.empty() ? given : std::vector<int>{rule};
  };
  std::vector<ScheduleForced> all;
  for (const int sms : or_default(chain, o.panel_sms, -1))
    for (const int after : or_default(chain, o.after_look_ahead, -1))
      for (const int strips : or_default(persistent, o.strip_blocks, 0))
        for (const int workers : or_default(persistent, o.update_workers, 0))
          for (const int parts : or_default(two_chains, o.update_parts, 1))
            for (const auto& method : two_chains && !o.panel_methods.empty() ? o.panel_methods
                                                                              : std::vector<std::string>{""})
              all.push_back({sms, after, strips, workers, parts, method});
  return all;
}

#if FEM_WITH_CUDA
// cublas-pair: the band's leading rows [0, n/2) and trailing rows [n/2, n) factored as two bands
// (each a principal submatrix, so SPD; the second's rows reach left of its first column, but a
// factorisation reads nothing there) from two host threads at once, each by the rule's schedule.
template <class T>
void factor_halves_at_once(const band::BandOnBackend<T>& a, const ScheduleForced& forced) {
  const index_t first = a.layout.n / 2;
  const band::BandLayout halves[] = {{first, a.layout.bandwidth, a.layout.block},
                                     {a.layout.n - first, a.layout.bandwidth, a.layout.block}};
  T* rows[] = {a.rows(), a.rows() + first * a.layout.pitch()};
  FirstFailure failure;
  std::vector<std::thread> threads;
  for (int k = 0; k < 2; ++k)
    threads.emplace_back([&, k] {
      failure.run([&] { kernels::cuda::factor_on_device(halves[k], rows[k], pair_schedule(halves[k], forced, k)); });
    });
  for (auto& t : threads) t.join();
  failure.rethrow_if_failed();
}
#endif

#if FEM_WITH_CUDA
// The factorisation of a twisted impl, its band made on the device in the two-sided layout (not timed).
template <class T>
Timing time_twisted(const std::string& impl, kernels::DenseBackend& backend, const band::BandLayout& layout,
                    const ScheduleForced& forced, std::string& note) {
  const auto split = band::balanced_split(layout.n, layout.bandwidth);
  band::require_memory(backend, band::twisted_bytes(layout, sizeof(T)), "the benchmark's two-sided band");
  const auto a = band::allocate_twisted<T>(backend, layout, split);
  fill_band_on_device(a.top.rows(), 0, a.top.layout.n, layout.bandwidth, layout.window());
  fill_reflected_band_on_device(a.bottom.rows(), layout.n, split.m, layout.bandwidth, layout.window());
  backend.synchronize();
  band::TwistedTimes parts;
  const Stopwatch factoring;
  band::factor_twisted<T>(backend, a, twisted_walker<T>(impl, forced), &parts);
  backend.synchronize();
  Timing t;
  t.factor_s = factoring.seconds();
  char text[200];
  std::snprintf(text, sizeof text,
                "m %lld: copy A_SS %.2f ms, walkers %.4f s (top %.4f, bottom %.4f), separator combined %.2f ms, "
                "factored %.2f ms",
                static_cast<long long>(split.m), 1e3 * parts.copy_s, parts.walkers_s, parts.top_s, parts.bottom_s,
                1e3 * parts.combine_s, 1e3 * parts.separator_s);
  note = text;
  return t;
}
#endif

// One factorisation and, on the host, solve of ours (the solve with its copies of the right-hand
// side; on a device the factorisation alone, as the GPU figures have been). `note` gets what the
// reader should know of the run (the chunks of a streamed one).
template <class T>
Timing time_ours(const std::string& impl, kernels::DenseBackend& backend, const band::BandLayout& layout,
                 const HostArena& arena, double device_gb, const ScheduleForced& forced, double settle_s,
                 std::string& note) {
#if FEM_WITH_CUDA
  if (twisted(impl)) return time_twisted<T>(impl, backend, layout, forced, note);
#endif
  auto a = make_band<T>(backend, layout, arena);
  const auto rhs = benchmark_rhs(layout.n);
  backend.synchronize();
  if (!on_device(impl)) settle(settle_s);  // the host runs; the device ones keep their time on the device
  Timing t;
  const Stopwatch factoring;
#if FEM_WITH_CUDA
  if (impl == "cublas-pair") {
    factor_halves_at_once(a, forced);
  } else if (cublas_chain(impl)) {
    kernels::cuda::factor_on_device(a.layout, a.rows(), schedule_of(impl, a.layout, forced));
  } else if (impl == "cublas-streamed") {
    // By default a quarter of the band, but no less than streaming takes (the warm-up's band is small).
    const std::size_t bytes = device_gb > 0 ? static_cast<std::size_t>(device_gb * (1 << 30))
                                            : std::max(layout.elements() * sizeof(T) / 4,
                                                       kernels::cuda::min_streaming_bytes(layout, sizeof(T)));
    const int chunks = kernels::cuda::factor_streamed(layout, a.rows(), bytes);
    note = std::to_string(chunks) + " chunks through " + std::to_string(bytes >> 20) + " MiB";
  } else if (impl == "cuda-persistent") {
    if constexpr (!std::is_same_v<T, double>) throw std::invalid_argument("cuda-persistent factors in double only");
    else kernels::cuda::factor_persistent(a.layout, a.rows(), nullptr, {0, forced.strip_blocks, forced.update_workers});
  } else
#endif
  {
    (void)device_gb, (void)forced, (void)note;
    const band::Schedule schedule = impl == "blas"                            ? band::kHostSchedule
                                    : impl == "blas-tasks" || impl == "openmp" ? band::Schedule::tasks
                                    : impl == "blas-look-ahead"                ? band::Schedule::look_ahead
                                                                               : band::Schedule::in_order;
    band::factor(backend, a, schedule);
  }
  backend.synchronize();
  t.factor_s = factoring.seconds();
  if (on_device(impl)) return t;
  const Stopwatch solving;
  band::solve_factored(backend, a, rhs, 1);  // as the solver substitutes
  t.solve_s = solving.seconds();
  return t;
}

// LAPACKE_dpbtrf and LAPACKE_dpbtrs (one right-hand side) on OpenBLAS.
Timing time_openblas(index_t n, index_t b, const HostArena& arena, double settle_s) {
  double* ab = arena.as<double>(static_cast<std::size_t>(n * (b + 1)));
  fill_rows(0, n, b, b, ab);  // row i of the lower band = column i of LAPACK's upper band
  auto x = benchmark_rhs(n);
  settle(settle_s);
  Timing t;
  const Stopwatch factoring;
  int info = LAPACKE_dpbtrf(LAPACK_COL_MAJOR, 'U', n, b, ab, b + 1);
  t.factor_s = factoring.seconds();
  if (info != 0) throw std::runtime_error("LAPACKE_dpbtrf failed with info " + std::to_string(info));
  const Stopwatch solving;
  info = LAPACKE_dpbtrs(LAPACK_COL_MAJOR, 'U', n, b, 1, ab, b + 1, x.data(), n);
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
  if (impl.rfind("blas", 0) == 0) return std::make_unique<kernels::cpu::BlasBackend>();
  if (cublas_chain(impl) || twisted(impl) || impl == "cublas-streamed" || impl == "cuda-persistent") {
    // cublas-streamed keeps the band in host memory and moves it itself.
    auto device = kernels::make_dense_backend("cublas");  // checks that a device is there
    if (impl != "cublas-streamed") return device;
    return std::make_unique<kernels::cpu::BlasBackend>();
  }
  return kernels::make_dense_backend(impl);
}

#if FEM_WITH_CUDA
// One GPU step taken apart: the panel stream's chain of block column kernels against the
// update stream's trailing SYRK; the step takes about the larger of the two.
void print_step_breakdown(const Options& o) {
  std::cout << "\nOne GPU step, each operation alone (us a call, FP64):\n"
            << "     b    nb  first_kernel  panel_chain  trailing_syrk  us/column | next_update  look_ahead (first 64)  "
               "(rest) | trailing on 100 SMs | thin_kernel  solve\n";
  for (const index_t b : o.bandwidths)
    for (const index_t block0 : o.blocks) {
      const index_t nb = block0 > 0 ? std::min(block0, b) : band::default_block_size(b, true);
      const StepBreakdown t = time_step_parts(b, nb);
      std::printf("%6lld %5lld %13.1f %12.1f %14.1f %10.3f | %11.1f %21.1f %7.1f | %19.1f | %11.1f %6.1f\n",
                  static_cast<long long>(b), static_cast<long long>(nb), t.first_kernel_us, t.panel_us, t.trailing_us,
                  std::max(t.panel_us, t.trailing_us) / static_cast<double>(nb), t.next_update_us, t.look_ahead_us,
                  t.look_ahead_rest_us,
                  t.trailing_green_us, t.thin_kernel_us, t.solve_us);
    }
  if (std::find(o.impls.begin(), o.impls.end(), "cuda-persistent") == o.impls.end()) return;
  std::cout << "\ncuda-persistent, the critical path of a step (64 columns) in the kernel, median over steps "
               "(us; global timer):\n"
            << "     b  walkers  step  (strip waited, counts late)  strip: loads left_update wait2 second slab1 "
               "slab1->right slab2 flag  ->next strip  (SM GHz)  (chains: slab1 slab2)  (first half ->next)  "
               "(update tasks: a step, waited, held)\n";
  for (const index_t b : o.bandwidths)
    for (const int walkers : {1, 2}) {
      const PersistentStepBreakdown t = time_persistent_steps(b, walkers);
      std::printf("%6lld %8d %5.1f %14.1f %12.1f %7.1f: %5.1f %11.1f %5.1f %6.1f %5.1f %11.1f %5.1f %4.1f %12.1f %9.2f "
                  "%15.1f %5.1f %18.1f %14.0f %6.1f %5.1f\n",
                  static_cast<long long>(b), walkers, t.step_us, t.strip_waited_us, t.counts_late_us, t.strip_us,
                  t.strip_loads_us, t.strip_left_update_us, t.strip_second_wait_us, t.strip_second_half_us,
                  t.strip_first_slab_us, t.strip_first_update_us, t.strip_second_slab_us, t.strip_flag_us,
                  t.to_next_us, t.clock_ghz, t.first_chain_us, t.second_chain_us, t.first_half_to_next_us,
                  t.update_tasks, t.update_waited_us, t.update_held_us);
    }
}
#endif

#if FEM_WITH_CUDA
// A step's trailing update alone (time_update_variants), beside the DGEMM rate of the run.
void print_update_rates(const Options& o, double dgemm_gflops) {
  std::vector<int> spare{0};
  for (const int sms : o.panel_sms.empty() ? std::vector<int>{8} : o.panel_sms)
    if (sms > 0) spare.push_back(sms);
  std::cout << "\nA step's trailing update alone (C -= X X^T, lower triangle of n = b - nb rows, X n x nb; TFLOP/s of "
               "n (n + 1) nb flops, the square's of 2 n^2 nb; median of 5 rounds):\n"
            << "     b    nb     n  SMs_kept        us   TFLOP/s  %DGEMM  variant\n";
  for (const index_t b : o.bandwidths)
    for (const index_t block0 : o.blocks) {
      const index_t nb = block0 > 0 ? std::min(block0, b) : band::default_block_size(b, true);
      if (nb >= b) continue;
      for (const auto& r : time_update_variants(b, nb, spare))
        std::printf("%6lld %5lld %5lld %9d %9.1f %9.2f %7.1f  %s\n", static_cast<long long>(b),
                    static_cast<long long>(nb), static_cast<long long>(b - nb), r.spare_sms, r.us, r.tflops,
                    dgemm_gflops > 0 ? 100e3 * r.tflops / dgemm_gflops : 0.0, r.variant.c_str());
    }
}

// One chain's line of print_chain_steps (and right_looking_solve's panel stream, piece by piece).
void print_chain_step_medians(const band::BandLayout& layout, const std::string& label,
                              const kernels::cuda::DeviceSchedule& schedule,
                              const std::vector<kernels::cuda::ChainStepTimes>& times) {
  std::vector<double> period, panel, trailing, lag, queue;
  // Steps from 2 on, up to the first whose window the band's end cuts.
  const std::size_t full = static_cast<std::size_t>((layout.n - layout.bandwidth) / layout.block) - 1;
  for (std::size_t k = 2; k + 1 < full; ++k) {
    period.push_back(1e3 * (times[k + 1].panel_end - times[k].panel_end));
    panel.push_back(1e3 * (times[k].panel_end - times[k].panel_start));
    trailing.push_back(1e3 * (times[k].trailing_end - times[k].trailing_start));
    lag.push_back(1e3 * (times[k].panel_end - times[k].queued));
    queue.push_back(1e3 * (times[k + 1].queued - times[k].queued));
  }
  const auto median = [](std::vector<double> v) { return v.empty() ? 0.0 : spread_of(v).median; };
  std::vector<std::vector<double>> pieces;
  for (std::size_t k = 2; k + 1 < full; ++k) {
    const auto& m = times[k].panel_marks;
    if (m.empty()) continue;
    pieces.resize(m.size() + 1);
    pieces[0].push_back(1e3 * (m[0] - times[k].panel_start));
    for (std::size_t i = 1; i < m.size(); ++i)
      if (!std::isnan(m[i]) && !std::isnan(m[i - 1])) pieces[i].push_back(1e3 * (m[i] - m[i - 1]));
    std::size_t last = m.size() - 1;
    while (last > 0 && std::isnan(m[last])) --last;
    pieces[m.size()].push_back(1e3 * (times[k].panel_end - m[last]));
  }
  std::printf("%6lld %5lld  %-15s %9d %8d %8.1f %17.1f %16.1f %10.3f %8.1f %8.1f\n",
              static_cast<long long>(layout.bandwidth), static_cast<long long>(layout.block), label.c_str(),
              schedule.panel_sms, static_cast<int>(schedule.trailing_after_look_ahead), median(period), median(panel),
              median(trailing), median(period) / static_cast<double>(layout.block), median(lag), median(queue));
  if (!pieces.empty()) {
    std::printf("        panel stream: look-ahead (first 64) %.1f", median(pieces[0]));
    for (std::size_t i = 1; i + 2 < pieces.size(); i += 3)
      std::printf(" | kernel %zu: thin %.1f, side waited %.1f, solve %.1f", i / 3, median(pieces[i]),
                  median(pieces[i + 1]), median(pieces[i + 2]));
    std::printf(" | to the end %.1f\n", median(pieces.back()));
  }
}

// The cublas chain's steps as they run, the two streams together: for each b, block, chain impl
// and --panel-sms of the run, a band of 100 steps past its first window, factored with each
// step timed; medians over the steps whose window is full. cublas-pair factors two such bands at
// once from two host threads (each beside the other, as the two-sided walkers are) and prints a
// line for each chain.
void print_chain_steps(const Options& o) {
  std::cout << "\ncublas chain, a step as it runs (us, median over the steps, CUDA events): the step's period, the "
               "next block column (look-ahead update + panel, panel stream) and the trailing SYRK (update stream)\n"
            << "     b    nb  impl            panel_sms after_la   period  look-ahead+panel  trailing_update  "
               "us/column      lag    queue\n(lag: from the host queuing a step to the device finishing it; queue: "
               "the host's time to queue a step; where the host's launches set the pace, lag is about one step and "
               "queue the period)\n";
  for (const index_t b : o.bandwidths)
    for (const index_t block0 : o.blocks)
      for (const auto& impl : o.impls) {
        if (!cublas_chain(impl)) continue;
        const bool pair = impl == "cublas-pair";
        for (const auto& forced : forced_of(o, impl)) {
          band::BandLayout layout;
          layout.bandwidth = b;
          layout.block = block0 > 0 ? std::min(block0, b) : band::default_block_size(b, true, pair);
          layout.n = 100 * layout.block + 2 * b;
          const int chains = pair ? 2 : 1;
          std::vector<kernels::cuda::DeviceBuffer<double>> storage;
          for (int c = 0; c < chains; ++c) {
            storage.emplace_back(layout.elements());
            fill_band_on_device(storage.back().get(), 0, layout.n, b, layout.window());
          }
          std::vector<kernels::cuda::DeviceSchedule> schedules;
          for (int c = 0; c < chains; ++c)
            schedules.push_back(pair ? pair_schedule(layout, forced, c) : schedule_of(impl, layout, forced));
          std::vector<std::vector<kernels::cuda::ChainStepTimes>> times(static_cast<std::size_t>(chains));
          FirstFailure failure;
          std::vector<std::thread> threads;
          for (int c = 0; c < chains; ++c)
            threads.emplace_back([&, c] {
              const auto k = static_cast<std::size_t>(c);
              failure.run([&] { times[k] = kernels::cuda::factor_on_device_timed(layout, storage[k].get(), schedules[k]); });
            });
          for (auto& t : threads) t.join();
          failure.rethrow_if_failed();
          for (int c = 0; c < chains; ++c)
            print_chain_step_medians(layout, pair ? impl + "/" + std::to_string(c) : impl,
                                     schedules[static_cast<std::size_t>(c)], times[static_cast<std::size_t>(c)]);
        }
      }
}

#endif

// One implementation at one block size, at one (n, b, precision) of the grid.
struct Row {
  index_t block = 0;
  ScheduleForced forced;  // what the row forces of the CUDA schedule or the persistent kernels
  std::string impl;
  std::vector<double> factor_s, solve_s, total_s;  // one a repeat
  Timing median;
  double time_s = 0, min_s = 0;  // median and least of total_s
  std::string against;  // the reference of the speed-up
  double gflops = 0, speedup = 0, of_dgemm = 0;
  double ratio = 0, ratio_min = 0;  // to DPBTRF + DPBTRS: of the medians, of the fastest repeats
  std::string note;
};

// What the points of the grid share: the options, the back-ends, cuBLAS's DGEMM rate, and
// what earlier points found.
struct Grid {
  const Options& o;
  int threads = 0;
  std::map<std::string, std::unique_ptr<kernels::DenseBackend>> backends;
  std::unique_ptr<kernels::DenseBackend> cublas;  // kept for the whole grid, as the rows' own
  double dgemm = 0;
  std::map<std::string, bool> over_limit, warmed;
  // host impl -> the largest ratio to DPBTRF+DPBTRS over the grid, of the medians and of the minima
  std::map<std::string, double> worst_ratio, worst_ratio_min;

  bool on_host(const Row& row) const {
    return row.impl == "openblas" || (backends.count(row.impl) && backends.at(row.impl)->uses_host_memory());
  }
};

// The rows of one point: each implementation at each of its block sizes and forced schedules.
std::vector<Row> rows_of_point(Grid& grid, index_t b, const std::string& precision) {
  const Options& o = grid.o;
  std::vector<Row> rows;
  for (const auto& impl : o.impls)
    for (const index_t block0 : impl == "openblas"          ? std::vector<index_t>{0}
                                : impl == "cuda-persistent" || impl == "cuda-twisted" ? std::vector<index_t>{64}
                                                            : o.blocks)
      for (const auto& forced : forced_of(o, impl)) {
        if (impl == "openblas" && precision != "double") continue;
        Row row;
        row.impl = impl;
        row.block = impl == "openblas" ? 32 : block0 > 0 ? std::min(block0, std::max<index_t>(b, 1))
                                        : band::default_block_size(b, on_device(impl), twisted(impl));
        row.forced = forced;
        if (impl != "openblas" && !grid.backends.count(impl)) row.note = "not available";
        else if (grid.over_limit[impl]) row.note = "skipped: an earlier size exceeded --time-limit";
        rows.push_back(row);
      }
  return rows;
}

// One host arena for the point: the largest band of a host run (none where all run on a device).
// Where the memory cannot hold it, the host rows say so.
HostArena host_arena(const Grid& grid, std::vector<Row>& rows, index_t n, index_t b, const std::string& precision) {
  std::size_t arena_bytes = 0;
  for (const auto& row : rows)
    if (grid.on_host(row))
      arena_bytes = std::max(arena_bytes, row.impl == "openblas"
                                              ? static_cast<std::size_t>(n * (b + 1)) * sizeof(double)
                                              : band::BandLayout{n, b, row.block}.elements() *
                                                    (precision == "double" ? sizeof(double) : sizeof(float)));
  HostArena arena(0);
  try {
    band::require_memory(arena_bytes, host_available_memory(), "the benchmark band", "the host");
    arena = HostArena(arena_bytes);
  } catch (const std::exception& e) {
    for (auto& row : rows)
      if (grid.on_host(row) && row.note.empty()) row.note = e.what();
  }
  return arena;
}

// Times every row `repeats` times. The repeats interleave the implementations, so that a busy
// spell of the machine slows all of them alike rather than one.
void time_rows(Grid& grid, std::vector<Row>& rows, index_t n, index_t b, const std::string& precision,
               HostArena& arena, int repeats) {
  const Options& o = grid.o;
  for (int r = 0; r < repeats; ++r)
    for (auto& row : rows) {
      if (!row.note.empty() && row.factor_s.empty()) continue;  // unavailable, skipped or failed
      try {
        const band::BandLayout layout{n, b, row.block};
        const auto run = [&](const band::BandLayout& l) {
          auto& be = *grid.backends[row.impl];
          return precision == "double"
                     ? time_ours<double>(row.impl, be, l, arena, o.device_gb, row.forced, o.settle, row.note)
                     : time_ours<float>(row.impl, be, l, arena, o.device_gb, row.forced, o.settle, row.note);
        };
        if (on_device(row.impl) && !grid.warmed[row.impl + precision]) {  // module loading, first handles
          run(band::BandLayout{std::min<index_t>(n, 4 * (b + row.block)), b, row.block});
          grid.warmed[row.impl + precision] = true;
        }
        const Timing t = row.impl == "openblas" ? time_openblas(n, b, arena, o.settle) : run(layout);
        row.factor_s.push_back(t.factor_s);
        row.solve_s.push_back(t.solve_s);
        row.total_s.push_back(t.total());
      } catch (const std::exception& e) {
        row.note = e.what();
        row.factor_s.clear(), row.solve_s.clear(), row.total_s.clear();
      }
    }
}

// Each row's medians, rates, speed-up and ratio to DPBTRF+DPBTRS, printed and added to `csv`.
void report_rows(Grid& grid, std::vector<Row>& rows, index_t n, index_t b, const std::string& precision,
                 double other_cores, CsvTable& csv) {
  const double flops = band::cholesky_flops(n, b);
  // The first block size measured of a reference stands for it: its median time, or its
  // fastest repeat's.
  const auto reference = [&](const std::string& impl, bool fastest = false) {
    for (const auto& row : rows)
      if (row.impl == impl && !row.total_s.empty()) {
        const Spread t = spread_of(row.total_s);
        return fastest ? t.min : t.median;
      }
    return 0.0;
  };
  const double dpbtrf = reference("openblas"), dpbtrf_min = reference("openblas", true);
  for (auto& row : rows) {
    std::string verdict;  // which ratios are at most 1.0
    if (!row.factor_s.empty()) {
      row.median = {spread_of(row.factor_s).median, spread_of(row.solve_s).median};
      row.time_s = spread_of(row.total_s).median;
      row.min_s = spread_of(row.total_s).min;
      row.gflops = flops / row.median.factor_s / 1e9;
      if (row.time_s > grid.o.time_limit) grid.over_limit[row.impl] = true;
      const std::string against = !on_device(row.impl) ? "openblas" : reference("blas") > 0 ? "blas" : "openmp";
      if (row.impl != against && reference(against) > 0) {
        row.speedup = reference(against) / row.time_s;
        row.against = against;
      }
      if (!on_device(row.impl) && row.impl != "openblas" && dpbtrf > 0) {
        row.ratio = row.time_s / dpbtrf;
        row.ratio_min = row.min_s / dpbtrf_min;
        grid.worst_ratio[row.impl] = std::max(grid.worst_ratio[row.impl], row.ratio);
        grid.worst_ratio_min[row.impl] = std::max(grid.worst_ratio_min[row.impl], row.ratio_min);
        verdict = row.ratio_min <= 1 && row.ratio <= 1 ? "both"
                  : row.ratio_min <= 1                 ? "min"
                  : row.ratio <= 1                     ? "median"
                                                       : "NEITHER";
      }
      if (on_device(row.impl) && grid.dgemm > 0) row.of_dgemm = row.gflops / grid.dgemm;
    }
    const std::string forced = row.forced.describe();
    const std::string note = forced.empty() ? row.note : forced + (row.note.empty() ? "" : "; " + row.note);
    char line[640];
    std::snprintf(line, sizeof line,
                  "%9lld %6lld %5lld  %-15s  %-6s %9.4f %9.4f %9.4f %9.4f %10.1f %9s %7s %6s %10s  %-7s %6.2f  %s",
                  static_cast<long long>(n), static_cast<long long>(b), static_cast<long long>(row.block),
                  row.impl.c_str(), precision.c_str(), row.median.factor_s, row.median.solve_s, row.time_s,
                  row.min_s, row.gflops,
                  row.speedup > 0 ? (std::to_string(row.speedup).substr(0, 5) + "x").c_str() : "",
                  row.of_dgemm > 0 ? (std::to_string(100 * row.of_dgemm).substr(0, 4) + "%").c_str() : "",
                  row.ratio > 0 ? std::to_string(row.ratio).substr(0, 5).c_str() : "",
                  row.ratio_min > 0 ? std::to_string(row.ratio_min).substr(0, 5).c_str() : "",
                  verdict.c_str(), other_cores, note.c_str());
    std::cout << line << std::endl;
    csv.add({n, b, row.block, row.impl, precision, grid.threads, row.median.factor_s, row.median.solve_s, row.time_s,
             row.min_s, row.gflops, row.speedup, row.against, row.of_dgemm, row.ratio, row.ratio_min, verdict,
             other_cores, load_average(), note});
  }
}

// The back-ends of the implementations asked for, and cuBLAS's DGEMM rate where a device runs.
void open_backends(Grid& grid) {
  const Options& o = grid.o;
  for (const auto& impl : o.impls) {
    if (impl == "openblas") continue;
    try {
      grid.backends[impl] = backend_for(impl);
    } catch (const std::exception& e) {
      std::cerr << "skipping " << impl << ": " << e.what() << "\n";
    }
  }
  if (o.dgemm > 0 && kernels::dense_backend_status("cublas").available &&
      std::any_of(o.impls.begin(), o.impls.end(), on_device)) {
    grid.cublas = kernels::make_dense_backend("cublas");
    grid.dgemm = dgemm_rate(*grid.cublas, o.dgemm);
  }
}

// --update-rates and --breakdown: the device's own measurements after the grid.
void print_device_studies(const Options& o, double dgemm) {
  if (o.update_rates) {
#if FEM_WITH_CUDA
    if (kernels::dense_backend_status("cublas").available) print_update_rates(o, dgemm);
#endif
  }
  if (o.breakdown) {
#if FEM_WITH_CUDA
    const auto cublas = kernels::dense_backend_status("cublas");
    if (cublas.available) {
      print_step_breakdown(o);
      print_chain_steps(o);
    }
    else std::cout << "--breakdown skipped: " << cublas.reason << "\n";
#else
    std::cout << "--breakdown skipped: this build has no CUDA\n";
#endif
  }
}

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
  Grid grid{o, threads};
  open_backends(grid);
  std::cout << "band Cholesky factorisation, " << threads << " threads; OpenBLAS " << openblas_get_config();
  for (const auto& [name, be] : grid.backends) std::cout << "; " << name << ": " << be->description();
  if (grid.dgemm > 0) std::cout << "; cuBLAS DGEMM " << o.dgemm << ": " << grid.dgemm << " GFLOP/s";
  std::cout << "\nflops counted exactly (sum over columns of (r + 1)^2, about n (b + 1)^2)\n\n";
  const double load_start = load_average();
  std::printf("load average (1 min) at the start: %.2f\n\n", load_start);
  std::cout << "        n      b    nb  impl             prec   factor_s   solve_s    time_s     min_s    GFLOP/s  "
               "speed-up  %DGEMM  ratio  ratio_min  <=1.0   others\n";

  CsvTable csv({"n", "bandwidth", "block", "impl", "precision", "threads", "factor_s", "solve_s", "time_s", "min_s",
                "gflops", "speedup", "speedup_against", "of_dgemm", "ratio_to_dpbtrf", "ratio_min_to_dpbtrf",
                "at_most_dpbtrf", "other_cores", "load_average", "note"});
  for (const index_t n : o.sizes)
    for (const index_t b0 : o.bandwidths)
      for (const auto& precision : o.precisions) {
        const index_t b = std::min(b0, n - 1);
        std::vector<Row> rows = rows_of_point(grid, b, precision);
        HostArena arena = host_arena(grid, rows, n, b, precision);
        // A device factors 1e11 flops in milliseconds: its points are repeated up to 1e14 by default
        // (n = 1e6, b = 4000 is 1.6e13, 0.7 s on the H100).
        const bool all_on_device =
            std::all_of(rows.begin(), rows.end(), [](const Row& row) { return on_device(row.impl); });
        const int repeats = band::cholesky_flops(n, b) > o.single_run_flops * (all_on_device ? 1000 : 1) ? 1 : o.repeats;
        OtherProcesses others;
        others.start();
        time_rows(grid, rows, n, b, precision, arena, repeats);
        report_rows(grid, rows, n, b, precision, others.cores(), csv);
      }
  for (const auto& [impl, worst] : grid.worst_ratio)
    std::cout << "worst ratio over the grid (" << impl << " time / DPBTRF+DPBTRS time, 1.0 or less is parity): "
              << worst << " of the medians, " << grid.worst_ratio_min[impl] << " of the fastest repeats\n";
  std::printf("load average (1 min) at the end: %.2f (at the start: %.2f)\n", load_average(), load_start);
  write_rows(csv, o.csv);
  print_device_studies(o, grid.dgemm);
}

}  // namespace

int run_band_benchmark(int argc, char** argv) { return run_benchmark<Options>("band", argc, argv, add_options, run); }

}  // namespace fem::bench

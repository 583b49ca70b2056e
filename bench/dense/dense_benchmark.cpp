#include "bench/dense/dense_benchmark.hpp"

#include "bench/benchmark_command.hpp"
#include "kernels/dense_registry.hpp"
#include "support/csv_table.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#if FEM_WITH_OPENBLAS
#include <cblas.h>
#endif

namespace fem::bench {

namespace {

using fem::kernels::DenseBackend;
using fem::kernels::index_t;
using fem::kernels::Op;

struct Options {
  std::vector<index_t> sizes{64, 128, 256, 512, 1024, 2048, 4096, 8192};
  index_t max_size = 0;               // 0: no limit
  std::vector<std::string> backends;  // empty: all available
  std::vector<std::string> precisions{"double"};
  int repeats = 5;
  int threads = 0;
  double time_limit = 5;
  std::string csv = "dense_benchmark.csv";
};

void add_options(CLI::App& app, Options& o) {
  app.description("GEMM C = A B (n x n, row-major) on every dense back-end, OpenBLAS and cuBLAS, side by side");
  std::vector<std::string> known = fem::kernels::dense_backend_names();
  known.push_back("openblas");
  add_list_option(app, "--sizes", o.sizes, "sizes to run", positive_number());
  app.add_option("--max-size", o.max_size, "drop sizes above N")->check(positive_number());
  add_list_option(app, "--backends", o.backends, "back-ends to run (default: every available one, and openblas)",
                  CLI::IsMember(known));
  add_precision_option(app, o.precisions, "double, float or both");
  add_checked_option(app, "--repeats", o.repeats, "timed runs after one warm-up; the median is reported",
                     positive_number());
  app.add_option("--threads", o.threads, "OpenMP and OpenBLAS threads (default: OpenMP's default)")
      ->check(positive_number());
  add_checked_option(app, "--time-limit", o.time_limit, "skip a back-end at sizes where one run would take over S s",
                     positive_number());
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
  app.footer("Device back-ends are timed with the operands already on the device (CUDA with events).");
}

struct Row {
  std::string precision;
  index_t n = 0;
  std::string backend;
  double median_s = 0, min_s = 0, gflops = 0;
  std::string anchor;     // what this back-end is measured against
  double of_anchor = 0;   // gflops / anchor gflops (0: no anchor measured)
  double rel_err = 0;     // ‖C - C_ref‖_F / ‖C_ref‖_F against the first back-end of the size
  std::string note;       // description, or why it was skipped
  bool measured = false;
};

bool on_device(const std::string& name) { return name != "serial" && name != "openmp" && name != "openblas"; }

// The anchor a back-end is compared with: OpenBLAS on the host, cuBLAS on a device.
std::string anchor_of(const std::string& name) {
  if (name == "openblas" || name == "cublas") return "";
  return on_device(name) ? "cublas" : "openblas";
}

template <class T>
std::vector<T> random_square(index_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  std::vector<T> m(static_cast<std::size_t>(n * n));
  for (auto& v : m) v = static_cast<T>(dist(gen));
  return m;
}

template <class T>
double relative_error(const std::vector<T>& x, const std::vector<T>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff += std::pow(double(x[i]) - double(ref[i]), 2);
    norm += std::pow(double(ref[i]), 2);
  }
  return std::sqrt(diff / norm);
}

// Runs C = A B `repeats` times after a warm-up; returns the times and leaves C in `c`.
template <class T>
std::vector<double> time_backend(DenseBackend& backend, index_t n, const std::vector<T>& a,
                                 const std::vector<T>& b, std::vector<T>& c, int repeats) {
  const auto da = backend.upload(a.data(), n, n, n);
  const auto db = backend.upload(b.data(), n, n, n);
  const auto dc = backend.template allocate<T>(n, n);
  const auto run = [&] { backend.gemm(Op::none, Op::none, T(1), da, db, T(0), dc); };
  run();
  std::vector<double> times;
  for (int r = 0; r < repeats; ++r) times.push_back(backend.seconds_for(run));
  backend.download(dc, c.data(), n);
  return times;
}

#if FEM_WITH_OPENBLAS
template <class T>
std::vector<double> time_openblas(index_t n, const std::vector<T>& a, const std::vector<T>& b,
                                  std::vector<T>& c, int repeats) {
  const auto run = [&] {
    const auto nn = static_cast<blasint>(n);
    if constexpr (std::is_same_v<T, double>)
      cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nn, nn, nn, 1.0, a.data(), nn, b.data(), nn, 0.0, c.data(), nn);
    else
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, nn, nn, nn, 1.0f, a.data(), nn, b.data(), nn, 0.0f, c.data(), nn);
  };
  run();
  return time_each(repeats, run);
}
#endif

class Benchmark {
public:
  explicit Benchmark(Options options) : o_(std::move(options)) {}

  void run() {
    if (o_.threads > 0) omp_set_num_threads(o_.threads);
    const int threads = omp_get_max_threads();
#if FEM_WITH_OPENBLAS
    openblas_set_num_threads(threads);
#endif
    std::cout << "dense GEMM benchmark: " << threads << " CPU threads, " << o_.repeats
              << " timed runs after a warm-up, median reported\n";
    choose_backends();
    for (const auto& precision : o_.precisions)
      for (index_t n : o_.sizes) {
        if (o_.max_size > 0 && n > o_.max_size) continue;
        if (precision == "double") run_size<double>(precision, n);
        else run_size<float>(precision, n);
      }
    print_table();
    write_csv();
    print_summary();
  }

private:
  void choose_backends() {
    std::vector<std::string> wanted = o_.backends;
    if (wanted.empty()) {
      wanted = {"openblas"};
      for (const auto& name : fem::kernels::dense_backend_names()) wanted.push_back(name);
    }
    // The reference of each size is the first measured back-end: the most trusted go first.
    const std::vector<std::string> order{"openblas", "openmp", "serial", "cublas", "cuda", "cuda-naive", "opencl", "opencl-naive"};
    std::stable_sort(wanted.begin(), wanted.end(), [&](const auto& x, const auto& y) {
      return std::find(order.begin(), order.end(), x) < std::find(order.begin(), order.end(), y);
    });
    for (const auto& name : wanted) {
      if (name == "openblas") {
#if FEM_WITH_OPENBLAS
        names_.push_back(name);
        descriptions_[name] = std::string("OpenBLAS ") + openblas_get_config();
#else
        std::cout << "  openblas: not built into this benchmark (libopenblas-dev not found)\n";
#endif
        continue;
      }
      const auto status = fem::kernels::dense_backend_status(name);  // throws on unknown names
      if (!status.available) {
        std::cout << "  " << name << ": unavailable: " << status.reason << "\n";
        continue;
      }
      backends_[name] = fem::kernels::make_dense_backend(name);
      names_.push_back(name);
      descriptions_[name] = backends_[name]->description();
    }
    for (const auto& name : names_) std::cout << "  " << name << ": " << descriptions_[name] << "\n";
  }

  template <class T>
  void run_size(const std::string& precision, index_t n) {
    const auto a = random_square<T>(n, 1), b = random_square<T>(n, 2);
    std::vector<T> reference;
    std::string reference_name;
    const double flops = 2.0 * double(n) * double(n) * double(n);
    for (const auto& name : names_) {
      Row row;
      row.precision = precision;
      row.n = n;
      row.backend = name;
      row.anchor = anchor_of(name);
      row.note = descriptions_[name];
      const std::string key = precision + "/" + name;
      if (last_.count(key)) {
        const auto [last_n, last_s] = last_[key];
        const double expected = last_s * std::pow(double(n) / double(last_n), 3);
        if (expected > o_.time_limit) {
          row.note = "skipped: one run would take about " + std::to_string(int(expected)) + " s (> --time-limit)";
          rows_.push_back(row);
          continue;
        }
      }
      std::vector<T> c(static_cast<std::size_t>(n * n));
      std::vector<double> times;
      // OpenBLAS's workers spin for a while after each call; let them go to sleep so they do
      // not take the cores from the next back-end's threads (it cost our OpenMP GEMM up to
      // 40x at n = 128 on 2 cores).
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      try {
#if FEM_WITH_OPENBLAS
        if (name == "openblas") times = time_openblas(n, a, b, c, o_.repeats);
        else
#endif
          times = time_backend(*backends_[name], n, a, b, c, o_.repeats);
      } catch (const std::exception& e) {
        row.note = std::string("failed: ") + e.what();
        rows_.push_back(row);
        continue;
      }
      row.measured = true;
      const Spread spread = spread_of(times);
      row.median_s = spread.median;
      row.min_s = spread.min;
      row.gflops = flops / row.median_s * 1e-9;
      last_[key] = {n, row.median_s};
      if (reference.empty()) {
        reference = c;
        reference_name = name;
      }
      row.rel_err = relative_error(c, reference);
      if (name != reference_name) row.note += " (error vs " + reference_name + ")";
      rows_.push_back(row);
      std::cout << "  " << precision << " n=" << n << " " << name << ": " << row.gflops << " GFLOP/s\n" << std::flush;
    }
    for (auto& row : rows_) {  // anchors are measured in the same size and precision
      if (row.n != n || row.precision != precision || row.anchor.empty() || !row.measured) continue;
      for (const auto& other : rows_)
        if (other.n == n && other.precision == precision && other.backend == row.anchor && other.measured)
          row.of_anchor = row.gflops / other.gflops;
    }
  }

  void print_table() const {
    std::printf("\n%-6s %6s %-13s %12s %11s %9s %10s  %s\n", "prec", "n", "backend", "median_s",
                "GFLOP/s", "of_anchor", "rel_err", "note");
    for (const auto& r : rows_) {
      if (!r.measured) {
        std::printf("%-6s %6lld %-13s %12s %11s %9s %10s  %s\n", r.precision.c_str(), (long long)r.n,
                    r.backend.c_str(), "-", "-", "-", "-", r.note.c_str());
        continue;
      }
      const std::string anchor = r.of_anchor > 0 ? std::to_string(int(std::lround(r.of_anchor * 100))) + "% " + r.anchor : "";
      std::printf("%-6s %6lld %-13s %12.6f %11.1f %9s %10.2e  %s\n", r.precision.c_str(), (long long)r.n,
                  r.backend.c_str(), r.median_s, r.gflops, anchor.c_str(), r.rel_err, r.note.c_str());
    }
  }

  void write_csv() const {
    CsvTable csv({"precision", "n", "backend", "threads", "repeats", "median_s", "min_s", "gflops", "anchor",
                  "fraction_of_anchor", "rel_err", "note"});
    for (const auto& r : rows_) {
      const auto measured = [&](double value) { return r.measured ? CsvCell(value) : CsvCell(""); };
      csv.add({r.precision, r.n, r.backend, omp_get_max_threads(), o_.repeats, measured(r.median_s), measured(r.min_s),
               measured(r.gflops), r.anchor, measured(r.of_anchor), measured(r.rel_err), r.note});
    }
    write_rows(csv, o_.csv);
  }

  // The targets: at the largest size where both ran, tiled CUDA against cuBLAS and
  // OpenMP against OpenBLAS.
  void print_summary() const {
    for (const auto& [backend, anchor] : {std::pair<std::string, std::string>{"openmp", "openblas"}, {"cuda", "cublas"}})
      for (const auto& precision : o_.precisions) {
        const Row* best = nullptr;
        for (const auto& r : rows_)
          if (r.backend == backend && r.precision == precision && r.of_anchor > 0 && (!best || r.n > best->n)) best = &r;
        if (best)
          std::printf("summary: %s %s reaches %.0f%% of %s at n = %lld (%.1f GFLOP/s)\n", precision.c_str(),
                      backend.c_str(), best->of_anchor * 100, anchor.c_str(), (long long)best->n, best->gflops);
      }
  }

  Options o_;
  std::vector<std::string> names_;
  std::map<std::string, std::unique_ptr<DenseBackend>> backends_;
  std::map<std::string, std::string> descriptions_;
  std::map<std::string, std::pair<index_t, double>> last_;  // precision/backend -> (n, median)
  std::vector<Row> rows_;
};

}  // namespace

int run_dense_benchmark(int argc, char** argv) {
  return run_benchmark<Options>("dense", argc, argv, add_options,
                                [](const Options& options) { Benchmark(options).run(); });
}

}  // namespace fem::bench

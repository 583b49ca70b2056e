#include "bench/spmv/spmv_benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench/spmv/fe_patterns.hpp"
#include "bench/spmv/matrix_market_reader.hpp"
#include "bench/spmv/pcg_comparison.hpp"
#include "bench/benchmark_command.hpp"
#include "fem/config.hpp"
#include "kernels/shared/sparse_formats.hpp"
#include "kernels/shared/spmv_cpu.hpp"
#include "solvers/iterative/preconditioner.hpp"
#include "support/csv_table.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_CUDA
#include "bench/spmv/cusparse_reference.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/nvml_energy.hpp"
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/spmv_tuning.hpp"
#endif
#if FEM_WITH_OPENCL
#include "kernels/device_matrix.hpp"
#include "kernels/opencl/spmv_opencl.hpp"
#endif

namespace fem::bench {
namespace {

constexpr double kCopyCeilingGBs = 3017.0;  // H100 device-to-device copy, ANCHORS.md

struct Options {
  std::string set = "default";          // FE matrix set: small | default | large
  std::vector<std::string> mtx;         // Matrix Market files
  std::string csv = "spmv.csv";
  double energy_window = 0.5;           // seconds per energy measurement; 0 = none
  bool sweep = true;                    // launch-parameter sweeps of the FE contenders
  bool opencl = true;
  bool cpu = false;                     // serial and OpenMP CSR on the host too
  int solve_cells = 0;                  // > 0: PCG solve of an elasticity box of cells^3 hex8 (GPU)
  int cpu_iterations = 0;               // > 0: CPU PCG iterations timed on the same system
  int solve_repeat = 1;                 // --solve runs of each preconditioner
  std::vector<std::string> fe;          // --fe: these boxes (BoxPattern names) instead of the set
  bool with_fe = true;                  // false: only the Matrix Market files
  std::vector<std::string> preconditioners{"jacobi", "amg"};  // of the --solve PCG, side by side
};

// Bytes of one CSR SpMV as ANCHORS.md counts them: values and columns, row pointers, x read
// once, y written.
double csr_bytes(const CsrMatrix& a) {
  return 12.0 * a.nnz() + 4.0 * (a.rows + 1) + 16.0 * a.rows;
}

struct Row {
  std::string matrix, backend, setting;
  std::int64_t rows = 0, nnz = 0;
  double seconds = 0, gbs = 0, gflops = 0, watts = 0, joules = 0, error = 0;
  std::string note;
};

// Rows go to the terminal as they come and to the CSV at the end, all at once (write_rows), so that a
// run that fails on its input leaves an earlier CSV as it was.
class Table {
 public:
  void add(Row r, const CsrMatrix& a) {
    r.rows = a.rows;
    r.nnz = a.nnz();
    if (r.seconds > 0) {
      r.gbs = csr_bytes(a) / r.seconds * 1e-9;
      r.gflops = 2.0 * a.nnz() / r.seconds * 1e-9;
    }
    std::printf("  %-9s %-26s %9.4f ms %8.1f GB/s %7.1f GFLOP/s %5.0f%% ", r.backend.c_str(), r.setting.c_str(),
                1e3 * r.seconds, r.gbs, r.gflops, 100.0 * r.gbs / kCopyCeilingGBs);
    if (r.watts > 0) std::printf("%6.1f W %9.3e J %6.2f GFLOP/s/W ", r.watts, r.joules, r.gflops / r.watts);
    if (!r.note.empty()) std::printf("%s", r.note.c_str());
    if (r.error > 1e-10) std::printf(" WRONG (error %.1e)", r.error);
    std::printf("\n");
    std::fflush(stdout);
    csv_.add({r.matrix, r.rows, r.nnz, r.backend, r.setting, 1e3 * r.seconds, r.gbs, r.gflops, r.gbs / kCopyCeilingGBs,
              r.watts, r.joules, r.watts > 0 ? r.gflops / r.watts : 0.0, r.error, r.note});
    rows_.push_back(r);
  }
  const std::vector<Row>& rows() const { return rows_; }
  const CsvTable& csv() const { return csv_; }

 private:
  CsvTable csv_{{"matrix", "rows", "nnz", "backend", "setting", "ms", "GB/s", "GFLOP/s", "copy_ceiling_fraction", "W",
                 "J_per_spmv", "GFLOP/s_per_W", "max_rel_error", "note"}};
  std::vector<Row> rows_;
};

// Of a device's result (builds without a device have none to check).
[[maybe_unused]] double max_relative_error(const std::vector<double>& y, const std::vector<double>& reference) {
  double scale = 1e-300, worst = 0;
  for (double v : reference) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::abs(y[i] - reference[i]));
  return worst / scale;
}

std::vector<BoxPattern> fe_set(const std::string& set) {
  if (set == "small") return {{2, 100, 1, 1}, {3, 12, 1, 3}, {3, 6, 2, 3}};
  std::vector<BoxPattern> boxes = {{2, 100, 1, 1},  {2, 1500, 1, 1}, {2, 500, 2, 2}, {3, 40, 1, 3},
                                   {3, 20, 2, 3},   {3, 150, 1, 1},  {3, 80, 1, 3}};
  if (set == "large") boxes.push_back({3, 110, 1, 3});
  return boxes;
}

#if FEM_WITH_CUDA
namespace gpu = kernels::cuda;

// Average watts and joules per call over a window of back-to-back calls (NVML counter).
void measure_energy(gpu::EnergyMeter& meter, const std::function<void()>& work, double seconds_per_call, double window,
                    Row& row) {
  if (!meter.available() || window <= 0 || seconds_per_call <= 0) return;
  const int calls = std::max(10, static_cast<int>(window / seconds_per_call));
  gpu::synchronize();
  meter.start();
  const Stopwatch window_watch;
  for (int i = 0; i < calls; ++i) work();
  gpu::synchronize();
  const double elapsed = window_watch.seconds(), joules = meter.stop_joules();
  if (joules <= 0) return;
  row.watts = joules / elapsed;
  row.joules = joules / calls;
}

struct GpuMatrixRun {
  const CsrMatrix& a;
  const std::string& name;
  const std::vector<double>& reference;  // A x on the host
  gpu::DeviceVector& x;
  gpu::DeviceVector& y;
  Table& table;
  gpu::EnergyMeter& meter;
  const Options& options;
  int repeats;
};

Row timed_row(GpuMatrixRun& run, const std::string& backend, const std::string& setting,
              const std::function<void()>& work, bool energy) {
  Row r;
  r.matrix = run.name;
  r.backend = backend;
  r.setting = setting;
  std::vector<double> y(run.reference.size());
  run.y.upload(std::vector<double>(y.size(), 7.0).data());
  work();
  run.y.download(y.data());
  r.error = max_relative_error(y, run.reference);
  r.seconds = gpu::seconds_per_call(work, run.repeats);
  if (energy) measure_energy(run.meter, work, r.seconds, run.options.energy_window, r);
  return r;
}

struct CudaOutcome {
  double best = 0, best_csr = 0, model = 0;  // seconds per SpMV: fastest, fastest CSR / vector CSR, model's pick
  double best_bytes = 0;                      // bytes the fastest setting moves
  std::string best_setting, model_setting;
};

// Every CUDA format and its launch parameters.
CudaOutcome run_cuda_formats(GpuMatrixRun& run, const kernels::RowStats& stats) {
  CudaOutcome outcome;
  double best = 0;
  gpu::SpmvSetting best_setting;
  const gpu::SpmvSetting model = gpu::model_setting(stats);
  double model_seconds = 0;
  double bytes_moved = 0;  // by the format being timed
  auto record = [&](const gpu::SpmvSetting& s, Row r) {
    if (r.error < 1e-10 && (best == 0 || r.seconds < best))
      best = r.seconds, best_setting = s, outcome.best_bytes = bytes_moved;
    if (gpu::to_string(s) == gpu::to_string(model)) {
      model_seconds = r.seconds;
      r.note += r.note.empty() ? "model pick" : "; model pick";
    }
    run.table.add(r, run.a);
  };
  for (const auto format : gpu::all_spmv_formats()) {
    gpu::SpmvSetting s;
    s.format = format;
    s.threads_per_row = 1;
    std::optional<gpu::DeviceSpmv> spmv;
    const Stopwatch converting;
    try {
      spmv.emplace(run.a, s);
    } catch (const kernels::FormatRefused& e) {
      std::printf("  cuda      %-26s refused: %s\n", gpu::format_name(format).c_str(), e.what());
      continue;
    }
    const std::string moved = "moves " + std::to_string(static_cast<long long>(spmv->bytes_moved() / 1e6)) +
                              " MB (" + std::to_string(spmv->bytes_moved() / csr_bytes(run.a)).substr(0, 4) +
                              " x CSR), converted in " + std::to_string(converting.seconds()).substr(0, 5) + " s";
    bytes_moved = spmv->bytes_moved();
    auto work = [&] { spmv->apply(run.x.data(), run.y.data()); };
    // Lanes per row (vector CSR) or per block row (BCSR).
    std::vector<int> teams = {1};
    if (format == gpu::SpmvFormat::CsrVector) teams = {2, 4, 8, 16, 32};
    if (format == gpu::SpmvFormat::Bcsr) teams = {1, 2, 4, 8, 16, 32};
    double format_best = 0;
    gpu::SpmvSetting format_best_setting = s;
    for (int t : teams) {
      s.threads_per_row = t;
      spmv->relaunch(s);
      Row r = timed_row(run, "cuda", gpu::to_string(s), work, false);
      if (t == teams.front()) r.note = moved;
      if (r.error < 1e-10 && (format_best == 0 || r.seconds < format_best))
        format_best = r.seconds, format_best_setting = s;
      record(s, r);
    }
    const bool csr = format == gpu::SpmvFormat::CsrScalar || format == gpu::SpmvFormat::CsrVector;
    // Block size, register cap and carve-out around the format's best team.
    const bool contender = format != gpu::SpmvFormat::CsrScalar && format != gpu::SpmvFormat::Ell &&
                           format != gpu::SpmvFormat::Hyb;
    if (run.options.sweep && contender)
      for (int block : {128, 256, 512, 1024})
        for (int cap : {32, 64, 255})
          for (int carveout : {-1, 0, 100}) {
            if ((cap == 255 && block > 256) || (block == 256 && cap == 64 && carveout == -1)) continue;
            if (carveout != -1 && !(cap == 64)) continue;  // carve-out swept at the default cap only
            gpu::SpmvSetting v = format_best_setting;
            v.block_size = block;
            v.register_cap = cap;
            v.carveout = carveout;
            spmv->relaunch(v);
            const Row r = timed_row(run, "cuda", gpu::to_string(v), work, false);
            if (r.error < 1e-10 && r.seconds < format_best) format_best = r.seconds, format_best_setting = v;
            record(v, r);
          }
    // The format's best setting once more, with its energy.
    spmv->relaunch(format_best_setting);
    Row r = timed_row(run, "cuda", gpu::to_string(format_best_setting), work, true);
    r.note = "best of " + gpu::format_name(format) + ", " +
             std::to_string(spmv->bytes_moved() / r.seconds * 1e-9 / kCopyCeilingGBs * 100).substr(0, 4) +
             "% of the copy ceiling in bytes moved";
    if (csr && r.error < 1e-10 && (outcome.best_csr == 0 || r.seconds < outcome.best_csr)) outcome.best_csr = r.seconds;
    record(format_best_setting, r);
  }
  if (model_seconds == 0) {  // the model picked a launch setting that the grid above did not time
    try {
      gpu::DeviceSpmv spmv(run.a, model);
      Row r = timed_row(run, "cuda", gpu::to_string(model), [&] { spmv.apply(run.x.data(), run.y.data()); }, false);
      record(model, r);
    } catch (const kernels::FormatRefused&) {
    }
  }
  std::printf("  best CUDA: %s %.4f ms; model pick %s %.4f ms (%.1f%% slower than the timed best)\n",
              gpu::to_string(best_setting).c_str(), 1e3 * best, gpu::to_string(model).c_str(), 1e3 * model_seconds,
              model_seconds > 0 ? 100.0 * (model_seconds / best - 1.0) : -1.0);
  outcome.best = best;
  outcome.model = model_seconds;
  outcome.best_setting = gpu::to_string(best_setting);
  outcome.model_setting = gpu::to_string(model);
  return outcome;
}
#endif

#if FEM_WITH_OPENCL
// The tunable CSR kernel over (WG, R) and ELL/SELL; the whole grid printed for `grid` matrices.
// Returns the best CSR setting's seconds.
double run_opencl(const kernels::opencl::ClSparseDevice& device, const CsrMatrix& a, const std::string& name,
                  const std::vector<double>& x_host, const std::vector<double>& reference, Table& table, bool grid,
                  int repeats) {
  namespace cl = kernels::opencl;
  cl::ClVector x(device, x_host.size()), y(device, x_host.size());
  x.upload(x_host.data());
  auto run_setting = [&](cl::ClSpmv& spmv, const cl::ClSpmvSetting& s, const std::string& note) {
    Row r;
    r.matrix = name;
    r.backend = "opencl";
    r.setting = cl::to_string(s);
    r.note = note;
    spmv.relaunch(s);
    std::vector<double> out(x_host.size(), 7.0);
    y.upload(out.data());
    spmv.apply(x, y);
    y.download(out.data());
    r.error = max_relative_error(out, reference);
    r.seconds = cl::time_spmv(device, spmv, x, y, repeats);
    table.add(r, a);
    return r.error < 1e-10 ? r.seconds : 0.0;
  };
  const cl::ClSpmvSetting model = cl::model_cl_setting(kernels::row_statistics(a));
  cl::ClSpmv csr(device, a, model);
  const double model_s = run_setting(csr, model, "model pick");
  double best = model_s;
  cl::ClSpmvSetting best_setting = model;
  for (int wg = grid ? 1 : 64; wg <= 256; wg *= 2)
    for (int r = 1; r <= wg; r *= 2) {
      const int team = wg / r;
      if (!grid && team != 1 && team != 4 && team != 8 && team != 16 && team != 32) continue;
      const cl::ClSpmvSetting s{cl::ClSpmvFormat::Csr, wg, r};
      if (cl::to_string(s) == cl::to_string(model)) continue;
      const double t = run_setting(csr, s, team == 1 ? "naive (one row per work-item)" : "");
      if (t > 0 && (best == 0 || t < best)) best = t, best_setting = s;
    }
  for (const auto format : {cl::ClSpmvFormat::Ell, cl::ClSpmvFormat::Sell}) {
    const cl::ClSpmvSetting s{format, 128, 1};
    try {
      cl::ClSpmv padded(device, a, s);
      run_setting(padded, s, "");
    } catch (const kernels::FormatRefused& e) {
      std::printf("  opencl    %-26s refused: %s\n", cl::to_string(s).c_str(), e.what());
    }
  }
  std::printf("  best OpenCL CSR: %s %.4f ms; model pick %s %.4f ms (%.1f%% slower)\n", cl::to_string(best_setting).c_str(),
              1e3 * best, cl::to_string(model).c_str(), 1e3 * model_s, 100.0 * (model_s / best - 1.0));
  return best;
}
#endif

void run_cpu(const CsrMatrix& a, const std::string& name, const std::vector<double>& x, Table& table) {
  std::vector<double> y(x.size());
  for (const char* which : {"serial", "openmp"}) {
    const bool serial = which[0] == 's';
    auto work = [&] { serial ? kernels::spmv_serial(a, x, y) : kernels::spmv_openmp(a, x, y); };
    work();
    const int repeats = std::clamp(static_cast<int>(2e8 / (12.0 * a.nnz() + 1)), 2, 50);
    const Stopwatch watch;
    for (int i = 0; i < repeats; ++i) work();
    Row r;
    r.matrix = name;
    r.backend = "cpu";
    r.setting = std::string("csr-") + which;
    r.seconds = watch.seconds() / repeats;
    table.add(r, a);
  }
}

// One matrix's figures for the closing table (0 = not run).
struct MatrixSummary {
  std::string name;
  std::int64_t nnz = 0;
  double csr_bytes = 0, alg1 = 0, opencl = 0;
#if FEM_WITH_CUDA
  CudaOutcome cuda;
#endif
};

// The targets per matrix: best CUDA kernel against cuSPARSE ALG1 and the copy ceiling,
// the tuned OpenCL CSR against our CUDA CSR, and the model's pick against the timed best.
void print_summary(const std::vector<MatrixSummary>& summaries) {
  std::printf("\n== summary (GB/s in CSR bytes as ANCHORS.md counts them; 'moved' = bytes the kernel moves)\n");
  std::printf("%-16s %7s %9s %9s %-26s %6s %6s %6s %9s %9s %7s %-26s %6s\n", "matrix", "Mnnz", "alg1 ms", "best ms",
              "best setting", "xALG1", "%ceil", "%moved", "cudaCSR", "openclCSR", "cl/cu", "model pick", "model+");
  for (const auto& m : summaries) {
#if FEM_WITH_CUDA
    const auto& c = m.cuda;
    const double ceil = c.best > 0 ? 100.0 * m.csr_bytes / c.best * 1e-9 / kCopyCeilingGBs : 0.0;
    const double moved = c.best > 0 ? 100.0 * c.best_bytes / c.best * 1e-9 / kCopyCeilingGBs : 0.0;
    std::printf("%-16s %7.1f %9.4f %9.4f %-26s %6.2f %6.0f %6.0f %9.4f %9.4f %7.2f %-26s %5.0f%%\n", m.name.c_str(),
                m.nnz * 1e-6, 1e3 * m.alg1, 1e3 * c.best, c.best_setting.c_str(), c.best > 0 ? m.alg1 / c.best : 0.0,
                ceil, moved, 1e3 * c.best_csr, 1e3 * m.opencl, c.best_csr > 0 ? m.opencl / c.best_csr : 0.0,
                c.model_setting.c_str(), c.best > 0 && c.model > 0 ? 100.0 * (c.model / c.best - 1.0) : -1.0);
#else
    std::printf("%-16s %7.1f openclCSR %9.4f ms\n", m.name.c_str(), m.nnz * 1e-6, 1e3 * m.opencl);
#endif
  }
}

void add_options(CLI::App& app, Options& o) {
  app.description(
      "SpMV of FE box matrices and Matrix Market files on every back-end (CUDA formats and launch settings,"
      " cuSPARSE, OpenCL, the CPU); with --solve, PCG side by side on the GPU and the CPU");
  add_checked_option(app, "--set", o.set,
                     "FE box matrices (2D/3D, linear/quadratic; large adds 3D-q1-d3-110, 326M nnz)",
                     CLI::IsMember({"small", "default", "large"}));
  app.add_option("--fe", o.fe, "this FE box matrix instead of the set, e.g. 3D-q1-d3-110 (repeatable)")
      ->allow_extra_args(false)  // one name per --fe: what follows is a Matrix Market file
      ->check(checked_by([](const std::string& name) { parse_box_pattern(name); }, "BOX"));
  app.add_flag_callback(
      "--no-fe", [&o] { o.with_fe = false; }, "only the Matrix Market files");
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
  add_checked_option(app, "--energy-window", o.energy_window,
                     "seconds of back-to-back SpMVs per NVML energy reading (0: off)", non_negative_number());
  app.add_flag_callback(
      "--no-sweep", [&o] { o.sweep = false; }, "skip the block-size/register-cap/carve-out sweeps");
  app.add_flag_callback(
      "--no-opencl", [&o] { o.opencl = false; }, "skip the OpenCL kernels");
  app.add_flag("--cpu", o.cpu, "also time serial and OpenMP CSR on the host");
  app.add_option("--solve", o.solve_cells,
                 "PCG on the GPU (and CPU) of an elasticity box of CELLS^3 hex8 (3(CELLS+1)^3 dofs)")
      ->type_name("CELLS")
      ->check(positive_number());
  app.add_option_function<std::string>(
         "--preconditioner", [&o](const std::string& name) { o.preconditioners = {name}; },
         "with --solve: only this one (default: jacobi and amg side by side)")
      ->check(CLI::IsMember([] {
        const auto names = choice_names<Preconditioner>();
        return std::vector<std::string>(names.begin(), names.end());
      }()));
  app.add_option("--cpu-iterations", o.cpu_iterations, "with --solve: also solve on the CPU, at most K iterations")
      ->type_name("K")
      ->check(positive_number());
  app.add_option("--repeat", o.solve_repeat, "with --solve: set up and solve K times per preconditioner (first cold)")
      ->type_name("K")
      ->check(positive_number());
  app.add_option("files", o.mtx, "Matrix Market files")->type_name("FILE.mtx");
}

void run(const Options& options) {
  if (options.solve_cells > 0) {
    run_pcg_comparison(options.solve_cells, options.cpu_iterations, options.preconditioners, options.solve_repeat);
    return;
  }
  Table table;
#if FEM_WITH_CUDA
  const bool have_cuda = gpu::unavailable_reason().empty();
  gpu::EnergyMeter meter;
  if (have_cuda && !meter.available()) std::printf("energy: %s\n", meter.why_not().c_str());
  if (!have_cuda) std::printf("CUDA: %s\n", gpu::unavailable_reason().c_str());
#endif
#if FEM_WITH_OPENCL
  std::optional<kernels::opencl::ClSparseDevice> cl_device;
  if (options.opencl) try {
      cl_device.emplace();
      std::printf("OpenCL device: %s\n", cl_device->name().c_str());
    } catch (const kernels::BackendUnavailable& e) {
      std::printf("OpenCL: %s\n", e.what());
    }
  bool grid_done = false;
#endif
  std::vector<MatrixSummary> summaries;
  std::vector<std::pair<std::string, std::function<CsrMatrix()>>> matrices;
  std::vector<BoxPattern> boxes;
  if (!options.fe.empty())
    for (const auto& name : options.fe) boxes.push_back(parse_box_pattern(name));
  else if (options.with_fe)
    boxes = fe_set(options.set);
  for (const auto& box : boxes) matrices.emplace_back(box.name(), [box] { return make_box_pattern_matrix(box); });
  for (const auto& path : options.mtx) matrices.emplace_back(path, [path] { return read_matrix_market(path); });

  for (const auto& [name, build] : matrices) {
    const Stopwatch building;
    const CsrMatrix a = build();
    kernels::check_csr(a);
    const kernels::RowStats stats = kernels::row_statistics(a);
    std::printf("\n== %s: %lld rows, %lld nonzeros, %.1f per row (sd %.1f, max %lld), %lld diagonals%s (built in %.1f s)\n",
                name.c_str(), static_cast<long long>(a.rows), static_cast<long long>(a.nnz()), stats.mean,
                stats.stddev, static_cast<long long>(stats.max), static_cast<long long>(stats.diagonals),
                stats.block3 ? ", 3x3 blocks" : "", building.seconds());
    std::vector<double> x(static_cast<std::size_t>(a.rows)), reference(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1.0 + 0.5 * std::sin(0.37 * static_cast<double>(i));
    kernels::spmv_openmp(a, x, reference);
    // Timed calls of a device's SpMV (about 2 GB of traffic; builds without a device have none).
    [[maybe_unused]] const int repeats = std::clamp(static_cast<int>(2e9 / (12.0 * a.nnz() + 1)), 10, 200);
    if (options.cpu) run_cpu(a, name, x, table);
    MatrixSummary summary;
    summary.name = name;
    summary.nnz = a.nnz();
    summary.csr_bytes = csr_bytes(a);
#if FEM_WITH_CUDA
    if (have_cuda) {
      gpu::DeviceVector dx(x.size()), dy(x.size());
      dx.upload(x.data());
      GpuMatrixRun run{a, name, reference, dx, dy, table, meter, options, repeats};
      double alg1 = 0;
      for (auto alg : {CusparseCsr::Algorithm::Alg1, CusparseCsr::Algorithm::Alg2}) {
        CusparseCsr cusparse(a, alg);
        const bool one = alg == CusparseCsr::Algorithm::Alg1;
        Row r = timed_row(run, "cusparse", one ? "csr-alg1" : "csr-alg2",
                          [&] { cusparse.apply(dx.data(), dy.data()); }, true);
        if (one) alg1 = r.seconds;
        table.add(r, a);
      }
      const CudaOutcome cuda = run_cuda_formats(run, stats);
      summary.alg1 = alg1;
      summary.cuda = cuda;
      std::printf("  best CUDA kernel vs cuSPARSE ALG1: %.2fx, %.0f%% of the %.0f GB/s copy ceiling (CSR bytes), "
                  "%.0f%% in the bytes it moves\n",
                  alg1 / cuda.best, 100.0 * csr_bytes(a) / cuda.best * 1e-9 / kCopyCeilingGBs, kCopyCeilingGBs,
                  100.0 * cuda.best_bytes / cuda.best * 1e-9 / kCopyCeilingGBs);
    }
#endif
#if FEM_WITH_OPENCL
    if (cl_device) {
      const bool grid = !grid_done && stats.block3 && a.nnz() > 10'000'000;
      grid_done = grid_done || grid;
      summary.opencl = run_opencl(*cl_device, a, name, x, reference, table, grid, repeats);
    }
#endif
    summaries.push_back(summary);
  }
  print_summary(summaries);
  write_rows(table.csv(), options.csv);
}

}  // namespace

int run_spmv_benchmark(int argc, char** argv) { return run_benchmark<Options>("spmv", argc, argv, add_options, run); }

}  // namespace fem::bench

#include "bench/prepared/prepared_benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bench/benchmark_command.hpp"
#include "bench/common/elasticity_box.hpp"
#include "solvers/direct/iterative_refinement.hpp"
#include "solvers/linear_solver.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {

namespace {

struct Settings {
  int cells = 14;  // hex8 cells per side
  int rhs = 10;
  int repeat = 3;  // each time the best of this many runs: the host is shared
  std::vector<std::string> solvers = {"multifrontal", "band-cholesky", "cg-amg"};
  std::string device = "cpu";
  std::string csv = "prepared_benchmark.csv";
};

void add_options(CLI::App& app, Settings& s) {
  app.description(
      "Each solver prepared (factorised, or set up with its preconditioner) and solved for 1 right-hand side, "
      "then, from a fresh solver, for --rhs right-hand sides in one call, on a 3D hex8 elasticity box (clamped "
      "on xmin, RCM numbering); the ratio of the two times says what a further right-hand side costs");
  add_checked_option(app, "--cells", s.cells, "hex8 cells per side of the box", positive_number());
  add_checked_option(app, "--rhs", s.rhs, "right-hand sides of the second solve", positive_number());
  add_checked_option(app, "--repeat", s.repeat, "runs of each, the fastest kept", positive_number());
  add_list_option(app, "--solvers", s.solvers, "rows to run (cg-amg: cg with the AMG preconditioner)",
                  CLI::IsMember({"multifrontal", "band-cholesky", "cg-amg", "cg", "bicgstab"}));
  app.add_option("--device", s.device, "the solvers' device")->check(CLI::IsMember({"cpu", "cuda", "opencl"}))
      ->capture_default_str();
  app.add_option("--csv", s.csv, "where the rows go")->capture_default_str();
}

// `count` right-hand sides one after another: the box's own loads, then loads of the same size
// spread at random (the constrained equations' values are lifts and stay zero).
std::vector<double> loads(const std::vector<double>& f, int count) {
  const double scale = *std::max_element(f.begin(), f.end(), [](double a, double b) { return std::abs(a) < std::abs(b); });
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> all(f.begin(), f.end());
  for (int k = 1; k < count; ++k)
    for (const double fi : f) all.push_back(fi == 0 ? 0.0 : std::abs(scale) * value(gen));
  return all;
}

SolverOptions options_of(const std::string& row, const std::string& device) {
  SolverOptions options;
  // --solvers and --device take only names these know.
  options.method = parse_choice<SolverMethodId>(row == "cg-amg" ? "cg" : row).value();
  options.device = parse_choice<Device>(device).value();
  if (row == "cg-amg") options.preconditioner = Preconditioner::Amg;
  return options;
}

struct Timing {
  double seconds = 0, prepare_s = 0, residual = 0;
  int iterations = 0;
  bool reuses = false;
};

// A fresh solver prepared and solved for the first `count` right-hand sides, `repeat` times: the
// fastest run, its answers checked here.
Timing prepare_and_solve(const SolverOptions& options, const ElasticityBox& box, const std::vector<double>& all, int count,
                         int repeat) {
  const auto n = static_cast<std::size_t>(box.matrix.rows);
  const std::span<const double> rhs(all.data(), n * count);
  std::vector<double> x;
  Timing t;
  for (int run = 0; run < repeat; ++run) {
    x.assign(rhs.size(), 0.0);
    const auto solver = make_solver(options);
    const Stopwatch watch;
    const auto prepared = solver->prepare(box.matrix, box.nodes());
    const SolveReport report = prepared->solve(rhs, x, count);
    const double seconds = watch.seconds();
    if (run == 0 || seconds < t.seconds)
      t = {seconds, prepared->setup().time_setup_s, 0, report.iterations, prepared->reuses_preparation()};
  }
  std::vector<double> r;
  for (int k = 0; k < count; ++k)
    t.residual = std::max(t.residual, relative_residual(box.matrix, rhs.subspan(k * n, n),
                                                        std::span<const double>(x).subspan(k * n, n), r));
  return t;
}

void run(const Settings& s) {
  const Stopwatch assembling;
  const ElasticityBox box = elasticity_box(s.cells, {0, -9.81, 0});
  const auto& a = box.matrix;
  const std::string problem = "hex8 " + std::to_string(s.cells) + "^3";
  std::printf("%s elasticity: %lld equations, %lld nonzeros, assembled in %.2f s; %d threads; best of %d runs\n",
              problem.c_str(), static_cast<long long>(a.rows), static_cast<long long>(a.val.size()),
              assembling.seconds(), omp_get_max_threads(), s.repeat);
  const auto rhs = loads(box.rhs, s.rhs);
  std::printf("\n%-22s %10s %10s %10s %8s %14s %6s %9s\n", "solver", "prepare_s", "1 rhs s",
              (std::to_string(s.rhs) + " rhs s").c_str(), "ratio", "per extra rhs", "iter", "residual");
  CsvTable csv({"problem", "dofs", "nnz", "solver", "device", "rhs", "prepare_s", "time_1_s", "time_n_s", "ratio",
                "per_extra_rhs_s", "max_iterations", "max_residual", "reuses_preparation", "repeat"});
  for (const auto& row : s.solvers) {
    const SolverOptions options = options_of(row, s.device);
    const Timing one = prepare_and_solve(options, box, rhs, 1, s.repeat);
    const Timing many = prepare_and_solve(options, box, rhs, s.rhs, s.repeat);
    const double ratio = many.seconds / one.seconds;
    const double extra = s.rhs > 1 ? (many.seconds - one.seconds) / (s.rhs - 1) : 0.0;
    const std::string name = row + ":" + s.device;
    std::printf("%-22s %10.3f %10.3f %10.3f %8.2f %14.4f %6d %9.1e%s\n", name.c_str(), many.prepare_s, one.seconds,
                many.seconds, ratio, extra, many.iterations, std::max(one.residual, many.residual),
                many.reuses ? "" : "  (repeats the whole solve per right-hand side)");
    csv.add({problem, a.rows, static_cast<std::int64_t>(a.val.size()), row, s.device, s.rhs, many.prepare_s,
             one.seconds, many.seconds, ratio, extra, many.iterations, std::max(one.residual, many.residual),
             many.reuses ? 1 : 0, s.repeat});
  }
  write_rows(csv, s.csv);
}

}  // namespace

int run_prepared_benchmark(int argc, char** argv) {
  return run_benchmark<Settings>("prepared", argc, argv, add_options, run);
}

}  // namespace fem::bench

#include "bench/spmv/pcg_comparison.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/elasticity_box.hpp"
#include "kernels/shared/spmv_cpu.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/sparse_backend.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {
namespace {

// ||f - K u|| / ||f|| on the host: the check that the solver's own estimate is not fooling us.
double true_residual(const ElasticityBox& box, const std::vector<double>& u) {
  std::vector<double> ku(u.size());
  kernels::spmv_openmp(box.matrix, u, ku);
  double r2 = 0, f2 = 0;
  for (std::size_t i = 0; i < u.size(); ++i) r2 += (box.rhs[i] - ku[i]) * (box.rhs[i] - ku[i]), f2 += box.rhs[i] * box.rhs[i];
  return std::sqrt(r2 / f2);
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", s);
  return text;
}

// One row of the side-by-side table.
struct Row {
  std::string preconditioner, device, note;
  int iterations = 0;
  double setup_s = 0, solve_s = 0, residual = 0;
  std::string levels;  // AMG: levels and operator complexity
};

Row solved(const std::string& preconditioner, const std::string& device, const SolveReport& report,
           const ElasticityBox& box, const std::vector<double>& u) {
  Row row{preconditioner, device, "", report.iterations, report.time_setup_s, report.time_solve_s, true_residual(box, u), ""};
  if (report.figures.count("amg_levels")) {
    const auto figure = [&](const std::string& step) { return report.figures.at("amg_setup_" + step + "_s"); };
    row.levels = std::to_string(static_cast<int>(report.figures.at("amg_levels"))) + " levels, complexity " +
                 std::to_string(report.figures.at("amg_operator_complexity")).substr(0, 4) + ", coarsest " +
                 std::to_string(static_cast<long long>(report.figures.at("amg_coarsest_unknowns"))) + "; setup s: amg " +
                 seconds(report.figures.at("amg_setup_s")) + " =";
    // Where the AMG setup goes, step by step: the host's steps, the wait for the copies to the
    // back-end (which run beside them: their own seconds in brackets), what no step accounts
    // for, and the rest of the solver's setup outside the hierarchy.
    for (const char* step : {"near_null", "convert", "diagonal", "aggregate", "eigenvalue", "prolongator", "galerkin",
                             "coarse", "upload"})
      row.levels += std::string(" ") + step + " " + seconds(figure(step));
    row.levels += " (their own seconds: copies " + seconds(figure("upload_background")) + ", the fine operator's " +
                  seconds(figure("fine_copy_background")) + " of them, Lanczos " +
                  seconds(figure("eigenvalue_background")) + ") other " + seconds(figure("other")) +
                  "; outside amg " + seconds(report.time_setup_s - report.figures.at("amg_setup_s")) +
                  "; R from (A T)^T on " +
                  std::to_string(static_cast<int>(report.figures.at("amg_setup_restrictions_transposed_early"))) +
                  " levels";
    // The first touch of fresh memory, by step: the process's minor page faults, and the bytes the
    // large-block cache mapped fresh (the rest of the large arrays it handed out again).
    const auto per_step = [&](const std::string& what, double unit, const char* format) {
      std::string text;
      for (const char* step : {"near_null", "convert", "diagonal", "aggregate", "eigenvalue", "prolongator",
                               "galerkin", "coarse"}) {
        char value[32];
        std::snprintf(value, sizeof value, format, report.figures.at("amg_setup_" + std::string(step) + what) / unit);
        text += std::string(" ") + step + " " + value;
      }
      char all[32];
      std::snprintf(all, sizeof all, format, report.figures.at("amg_setup" + what) / unit);
      return text + ", all " + all;
    };
    row.levels += "; page faults (thousands):" + per_step("_page_faults", 1e3, "%.0f") +
                  "; fresh GB mapped:" + per_step("_mapped_bytes", 1e9, "%.2f") + ", reused GB " +
                  seconds(report.figures.at("amg_setup_reused_bytes") / 1e9);
    if (report.figures.count("amg_setup_galerkin_fine_threads"))
      row.levels += "; the fine level's Galerkin product on " +
                    std::to_string(static_cast<int>(report.figures.at("amg_setup_galerkin_fine_threads"))) +
                    " threads, each busy " + seconds(figure("galerkin_fine_thread_min")) + "-" +
                    seconds(figure("galerkin_fine_thread_max")) + " s";
  }
  return row;
}

// "tuning 0.31 s (timed 3), format 4.20 s of the setup": what choosing and making the GPU's SpMV matrix cost.
std::string tuning_note(const std::map<std::string, double>& figures) {
  if (!figures.count("spmv_tuning_s")) return "";
  char note[160];
  const double timed = figures.count("spmv_tuning_timed") ? figures.at("spmv_tuning_timed") : 0;
  std::snprintf(note, sizeof note, "tuning %.3f s (%s), format %.2f s of the setup", figures.at("spmv_tuning_s"),
                figures.count("spmv_tuning_cached") && figures.at("spmv_tuning_cached") > 0
                    ? "from the cache"
                    : (timed > 0 ? "timed " + std::to_string(static_cast<int>(timed)) : std::string("model")).c_str(),
                figures.count("spmv_format_s") ? figures.at("spmv_format_s") : 0.0);
  return note;
}

// Tunes the CUDA SpMV of the matrix twice, fresh (timing, which stores its pick) and from the
// cache, and prints both: the first run of a case and every later similar one.
void show_cuda_tuning(const CsrMatrix& a) {
  std::unique_ptr<kernels::SparseBackend> cuda;
  try {
    cuda = kernels::make_sparse_backend("cuda");
  } catch (const kernels::BackendUnavailable&) {
    return;
  }
  for (const char* setting : {"auto/fresh", "auto"}) {
    std::map<std::string, double> figures;
    const auto matrix = cuda->matrix(a, setting, figures);
    std::printf("SpMV %-10s %s: %s\n", setting, matrix->setting().c_str(), tuning_note(figures).c_str());
  }
}

// "host: Intel Xeon ..., 16 logical CPUs on 8 cores, transparent huge pages [madvise]": what the
// setup's threads run on (hyper-threads share a core's arithmetic and its memory bandwidth).
std::string host_note() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model, siblings, cores;
  const auto value = [&] { return line.substr(line.find(':') + 2); };
  while (std::getline(cpuinfo, line) && (model.empty() || siblings.empty() || cores.empty())) {
    if (line.rfind("model name", 0) == 0) model = value();
    else if (line.rfind("siblings", 0) == 0) siblings = value();
    else if (line.rfind("cpu cores", 0) == 0) cores = value();
  }
  std::ifstream thp_file("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string thp;
  std::getline(thp_file, thp);
  return "host: " + model + ", " + siblings + " logical CPUs on " + cores +
         " cores (per socket), transparent huge pages " + thp;
}

}  // namespace

int run_pcg_comparison(int cells, int cpu_iterations, const std::vector<std::string>& preconditioners, int repeat) {
  const Stopwatch assembling;
  const ElasticityBox box = elasticity_box(cells, {0, 0, -9.81});
  std::printf("elasticity box %d^3 hex8: %lld equations, %lld nonzeros, assembled in %.1f s\n", cells,
              static_cast<long long>(box.matrix.rows), static_cast<long long>(box.matrix.nnz()), assembling.seconds());
  std::printf("%s\n", host_note().c_str());
  show_cuda_tuning(box.matrix);
  std::vector<Row> rows;
  std::vector<std::string> runs;  // each preconditioner `repeat` times in a row: the first cold, the others warm
  for (const auto& preconditioner : preconditioners) runs.insert(runs.end(), static_cast<std::size_t>(repeat), preconditioner);
  for (const auto& preconditioner : runs) {
    SolverOptions options;
    options.preconditioner = effective_preconditioner(*parse_choice<Preconditioner>(preconditioner));
    options.tolerance = 1e-8;
    options.progress = [](const std::string& line) { std::printf("  %s\n", line.c_str()); };
    int gpu_iterations = 0;
    try {
      std::vector<double> u(box.rhs.size(), 0.0);
      SolverOptions on_cuda = options;
      on_cuda.device = Device::Cuda;
      const auto report = make_conjugate_gradient(on_cuda)->solve(box.system(), u);
      gpu_iterations = report.iterations;
      rows.push_back(solved(preconditioner, "cuda", report, box, u));
      rows.back().note = tuning_note(report.figures);
    } catch (const SolverUnavailable& e) {
      rows.push_back({preconditioner, "cuda", e.what(), 0, 0, 0, 0, ""});
    }
    if (cpu_iterations <= 0) continue;
    options.max_iterations = cpu_iterations;
    std::vector<double> u(box.rhs.size(), 0.0);
    const Stopwatch cpu_solve;
    try {
      rows.push_back(solved(preconditioner, "cpu", make_conjugate_gradient(options)->solve(box.system(), u), box, u));
    } catch (const SolveFailure&) {
      // the cap is below convergence: only the time per iteration is known
      const double per_iteration = cpu_solve.seconds() / cpu_iterations;
      Row row{preconditioner, "cpu", "capped at " + std::to_string(cpu_iterations) + " iterations", 0, 0, 0, 0, ""};
      row.iterations = cpu_iterations;
      row.solve_s = per_iteration * cpu_iterations;
      if (gpu_iterations > 0)
        row.note += "; the GPU's " + std::to_string(gpu_iterations) + " would take " +
                    std::to_string(per_iteration * gpu_iterations).substr(0, 6) + " s";
      rows.push_back(row);
    }
  }
  std::printf("\n%-14s %-6s %10s %9s %9s %12s %10s  %s\n", "preconditioner", "device", "iterations", "setup s",
              "solve s", "ms/iteration", "residual", "notes");
  for (const auto& r : rows) {
    if (r.iterations == 0) {
      std::printf("%-14s %-6s %s\n", r.preconditioner.c_str(), r.device.c_str(), r.note.c_str());
      continue;
    }
    std::printf("%-14s %-6s %10d %9.3f %9.3f %12.3f %10.1e  %s%s%s\n", r.preconditioner.c_str(), r.device.c_str(),
                r.iterations, r.setup_s, r.solve_s, 1e3 * r.solve_s / r.iterations, r.residual, r.levels.c_str(),
                r.levels.empty() || r.note.empty() ? "" : "; ", r.note.c_str());
  }
  return 0;
}

}  // namespace fem::bench

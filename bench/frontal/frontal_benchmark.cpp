#include "bench/frontal/frontal_benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/frontal/cholmod_reference.hpp"
#include "bench/benchmark_command.hpp"
#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/element_system.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/frontal/frontal_solver.hpp"
#include "support/csv_table.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {

namespace {

struct Settings {
  std::vector<int> sizes_2d = {100, 200, 300};  // quad4 cells per side
  std::vector<int> sizes_3d = {8, 12, 16};      // hex8 cells per side
  std::vector<int> sizes_tet10;                 // tet10 cells per side (each cell six tetrahedra)
  std::vector<std::string> solvers = {"cholmod", "band-cholesky", "frontal", "multifrontal"};
  std::vector<std::string> devices = {"cpu"};
  std::int64_t cpu_block = 32;
  std::int64_t gpu_block = 64;
  std::vector<int> cholmod_blas_threads = {0};  // one CHOLMOD run each; 0: OpenBLAS's default (as many as the cores)
  std::string csv = "frontal_benchmark.csv";
};

void add_options(CLI::App& app, Settings& s) {
  app.description(
      "The frontal and multifrontal solvers on elasticity boxes (quad4 in 2D, hex8 and tet10 in 3D, RCM "
      "numbering, one end fixed, gravity) against the band Cholesky (registry band-cholesky:cpu, when "
      "built) and CHOLMOD, all on the same system in one run");
  add_list_option(app, "--sizes-2d", s.sizes_2d, "cells per side of the 2D quad4 boxes", positive_number());
  add_list_option(app, "--sizes-3d", s.sizes_3d, "cells per side of the 3D hex8 boxes", positive_number());
  add_list_option(app, "--sizes-tet10", s.sizes_tet10, "cells per side of the 3D tet10 boxes",
                  positive_number());
  add_list_option(app, "--solvers", s.solvers, "rows to run",
                  CLI::IsMember({"cholmod", "band-cholesky", "frontal", "multifrontal"}));
  add_list_option(app, "--devices", s.devices, "devices: the frontal's cpu, opencl, cuda; the multifrontal's cpu, cuda", CLI::IsMember({"cpu", "opencl", "cuda"}));
  add_checked_option(app, "--cpu-block", s.cpu_block, "pivots per elimination step on the CPU", positive_number());
  add_checked_option(app, "--gpu-block", s.gpu_block, "pivots per elimination step on a GPU", positive_number());
  add_list_option(app, "--cholmod-blas-threads", s.cholmod_blas_threads,
                  "OpenBLAS threads while CHOLMOD runs, one run each, the fastest the reference (0: OpenBLAS's "
                  "default; on the 16-core GPU host 16 threads beside CHOLMOD's own 4 OpenMP threads made it 4x "
                  "slower than 12)",
                  CLI::NonNegativeNumber);
  app.add_option("--csv", s.csv, "where the rows go")->capture_default_str();
}

// One box problem with both forms of its system: element by element and assembled.
struct BoxProblem {
  std::string name;
  Mesh mesh;
  Problem problem;
  DofMap dofs;
  Constraints constraints;
  ElementSystemData elements;
  AssembledSystemData assembled;
  double assemble_s = 0;
};

struct BoxKind {
  int dim;
  ElementShape shape;
  int order;
  const char* name;
};
const BoxKind quad4{2, ElementShape::Quadrilateral, 1, "quad4"};
const BoxKind hex8{3, ElementShape::Hexahedron, 1, "hex8"};
const BoxKind tet10{3, ElementShape::Tetrahedron, 2, "tet10"};

std::unique_ptr<BoxProblem> make_problem(const BoxKind& kind, int cells) {
  auto b = std::make_unique<BoxProblem>();
  const int dim = kind.dim;
  BoxSpec spec;
  spec.size = dim == 2 ? std::vector<double>{1.0, 1.0} : std::vector<double>{1.0, 1.0, 1.0};
  spec.divisions.assign(dim, cells);
  spec.shape = kind.shape;
  spec.order = kind.order;
  b->name = std::string(kind.name) + " " + std::to_string(cells) + (dim == 2 ? "^2" : "^3");
  b->mesh = make_box_mesh(spec);
  Problem& p = b->problem;
  p.mesh = &b->mesh;
  p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 1.0, dim};
  p.materials = {{200e9, 0.3, 7800, 0}};
  p.cell_material.assign(b->mesh.cells.size(), 0);
  p.gravity = {0, -9.81, 0};
  std::vector<int> fixed;
  const auto* group = b->mesh.find_group("xmin");
  for (auto e : group->elements)
    for (int n : b->mesh.boundary.nodes_of(e)) fixed.push_back(n);
  std::sort(fixed.begin(), fixed.end());
  fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
  p.dirichlet.push_back({"xmin", fixed, {true, true, true}, {}, {}});
  const auto graph = renumber::node_graph_from_elements(b->mesh.cells.offset, b->mesh.cells.node,
                                                        static_cast<int>(b->mesh.num_nodes()));
  const auto numbering = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  b->dofs = make_dof_map(b->mesh.num_nodes(), dim, {numbering.new_of_old.begin(), numbering.new_of_old.end()});
  b->constraints = collect_constraints(p, b->dofs);
  const auto cells_in_order = renumber::element_order_by_nodes(b->mesh.cells.offset, b->mesh.cells.node, numbering);
  b->elements = make_element_system(p, b->dofs, b->constraints, {cells_in_order.begin(), cells_in_order.end()});
  const Stopwatch assembling;
  b->assembled = assemble(p, b->dofs, graph);
  apply_constraints(b->assembled.matrix, b->assembled.rhs, b->constraints);
  b->assemble_s = assembling.seconds();
  return b;
}

struct Row {
  std::string problem, solver, device;
  std::int64_t dofs = 0, block = 0;
  double time_s = 0, factor_s = 0, solve_s = 0, assemble_s = 0;
  double peak_bytes = 0, factor_bytes = 0, front_max = 0, front_rms = 0, front_bytes = 0;
  double flops = 0, eliminate_s = 0, device_share = 0, max_rel_diff = 0;
  std::string note;
  std::string large_fronts;  // multifrontal on cuda: its large fronts' rate against DGEMM, by phase
};

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return NAN;
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

Row frontal_row(const BoxProblem& b, const std::string& device, std::int64_t block, std::vector<double>& u) {
  const std::string backend = device == "cpu" ? "openmp" : device;
  SolverOptions options;
  options.method = SolverMethodId::Frontal;
  options.device = parse_choice<Device>(device).value();
  auto solver = make_frontal_solver(options, {backend, block});
  u.assign(b.dofs.num_dofs(), 0.0);
  const Stopwatch solving;
  const auto report = solver->solve(b.elements.system, u);
  Row r;
  r.time_s = solving.seconds();
  r.solver = "frontal";
  r.device = device;
  r.block = block;
  r.factor_s = report.time_setup_s;
  r.solve_s = report.time_solve_s;
  const auto& f = report.figures;
  r.assemble_s = f.at("time_prefront_s") + f.at("time_assemble_s");
  r.factor_bytes = f.at("factor_bytes");
  r.peak_bytes = static_cast<double>(report.memory_bytes) - r.factor_bytes;
  r.front_max = f.at("front_max");
  r.front_rms = f.at("front_rms");
  r.front_bytes = f.at("front_bytes");
  r.flops = f.at("flops");
  r.eliminate_s = f.at("time_eliminate_s");
  r.device_share = f.at("device_share");
  r.note = kernels::make_dense_backend(backend)->description();
  return r;
}

// cuBLAS DGEMM's rate on this device (GFLOP/s, n = 8192): what the device fronts are measured
// against. 0 where there is no cuBLAS back-end.
double cublas_dgemm_gflops() {
  if (!kernels::dense_backend_status("cublas").available) return 0;
  auto dense = kernels::make_dense_backend("cublas");
  constexpr kernels::index_t n = 8192;
  const auto a = dense->allocate<double>(n, n), b = dense->allocate<double>(n, n), c = dense->allocate<double>(n, n);
  dense->gemm(kernels::Op::none, kernels::Op::none, 1.0, a, b, 0.0, c);  // warm-up
  constexpr int repeats = 3;
  const double seconds = dense->seconds_for([&] {
    for (int i = 0; i < repeats; ++i) dense->gemm(kernels::Op::none, kernels::Op::none, 1.0, a, b, 0.0, c);
  });
  return repeats * 2.0 * n * n * n / seconds * 1e-9;
}

// The registry's multifrontal on `device` on the assembled system, told the dofs per node.
// `dgemm_gflops`: the device's DGEMM rate, which its fronts' rate is reported against.
Row multifrontal_row(const BoxProblem& b, std::unique_ptr<LinearSolver>& solver, const std::string& device,
                     double dgemm_gflops, std::vector<double>& u) {
  u.assign(b.dofs.num_dofs(), 0.0);
  NodeLayout layout;
  layout.dofs_per_node = b.problem.physics.dofs_per_node();
  const Stopwatch solving;
  const auto report = solver->solve(AssembledSystem{b.assembled.matrix, b.assembled.rhs, layout}, u);
  Row r;
  r.time_s = solving.seconds();
  r.solver = "multifrontal";
  r.device = device;
  r.factor_s = report.time_setup_s;
  r.solve_s = report.time_solve_s;
  r.assemble_s = b.assemble_s;
  const auto& f = report.figures;
  r.factor_bytes = f.at("factor_bytes");
  r.peak_bytes = static_cast<double>(report.memory_bytes) - r.factor_bytes;
  r.front_max = f.at("front_max");
  r.flops = f.at("flops");
  r.eliminate_s = f.at("time_factor_s");
  std::ostringstream note;
  note.precision(3);
  note << "order " << f.at("time_order_s") << " s, symbolic " << f.at("time_symbolic_s") << " s, factor "
       << f.at("time_factor_s") << " s, substitute " << f.at("time_substitute_s") << " s; memory estimate "
       << f.at("estimate_bytes") / 1e6 << " MB, used " << f.at("factorisation_bytes") / 1e6 << " MB (update matrices " << f.at("update_peak_bytes") / 1e6
       << " MB at most, stacks " << f.at("update_stack_bytes") / 1e6 << " MB); "
       << f.at("supernodes") << " supernodes";
  if (f.count("device_fronts")) {  // the fronts on the GPU: their eliminations' rate, against DGEMM's
    r.device_share = f.at("device_flops") / f.at("flops");
    const auto of_dgemm = [&](double gflops) {
      std::ostringstream s;
      s.precision(3);
      s << gflops << " GFLOP/s";
      if (dgemm_gflops > 0) s << " = " << 100 * gflops / dgemm_gflops << " % of DGEMM";
      return s.str();
    };
    note << "; device: " << f.at("device_fronts") << " fronts eliminated at " << of_dgemm(f.at("device_elimination_gflops"))
         << "; host part " << f.at("time_host_factor_s") << " s, device part " << f.at("time_device_s") << " s ("
         << of_dgemm(f.at("device_gflops")) << "), " << f.at("device_upload_bytes") / 1e6 << " MB up, "
         << f.at("device_peak_bytes") / 1e6 << " MB held there (estimate " << f.at("device_estimate_bytes") / 1e6
         << " MB)";
    // The measure: the large fronts' rate against DGEMM (target 30 %), with its two phases.
    std::ostringstream large;
    large.precision(3);
    large << "large fronts, of 1e10 flops and more: " << f.at("large_fronts") << " with "
         << 100 * f.at("large_front_flops") / f.at("flops") << " % of the flops, " << f.at("time_large_front_s")
         << " s at " << of_dgemm(f.at("large_front_gflops")) << " [target 30 %]; panels (L11, L21) "
         << f.at("time_large_panel_s") << " s at " << of_dgemm(f.at("large_panel_gflops")) << ", update matrices "
         << f.at("time_large_update_s") << " s at " << of_dgemm(f.at("large_update_gflops"));
    r.large_fronts = large.str();
  }
  r.note = note.str();
  return r;
}

void print_row(const Row& r) {
  std::printf("%-12s %8lld %-14s %-7s %5lld %9.3f %9.3f %8.3f %9.1f %9.1f %7.0f %7.0f %8.2f %6.2f %9.1e\n",
              r.problem.c_str(), static_cast<long long>(r.dofs), r.solver.c_str(), r.device.c_str(),
              static_cast<long long>(r.block), r.time_s, r.factor_s, r.assemble_s, r.peak_bytes / 1e6,
              r.factor_bytes / 1e6, r.front_max, r.front_rms,
              r.eliminate_s > 0 ? r.flops / r.eliminate_s * 1e-9 : 0.0, r.device_share, r.max_rel_diff);
  std::fflush(stdout);
}

double cholmod_seconds(const CholmodRun& c) { return c.time_analyse_s + c.time_factor_s + c.time_solve_s; }

Row cholmod_row(const BoxProblem& b, const CholmodRun& run) {
  Row r;
  r.solver = "cholmod";
  r.device = "cpu";
  r.time_s = cholmod_seconds(run);
  r.factor_s = run.time_analyse_s + run.time_factor_s;
  r.solve_s = run.time_solve_s;
  r.assemble_s = b.assemble_s;
  r.peak_bytes = static_cast<double>(run.peak_bytes);  // its factor included: CHOLMOD keeps it in its workspace count
  r.factor_bytes = static_cast<double>(run.factor_bytes);
  r.flops = run.flops;
  r.eliminate_s = run.time_factor_s;
  r.note = run.method + ", L stored in " + std::to_string(run.stored_bytes / 1000000) + " MB, " +
           std::to_string(run.blas_threads) + " OpenBLAS threads";
  return r;
}

// The band Cholesky on the CPU; its solution into u.
Row band_row(const BoxProblem& b, LinearSolver& band, std::vector<double>& u) {
  u.assign(static_cast<std::size_t>(b.dofs.num_dofs()), 0.0);
  const Stopwatch solving;
  const auto report = band.solve(AssembledSystem{b.assembled.matrix, b.assembled.rhs}, u);
  Row r;
  r.solver = "band-cholesky";
  r.device = "cpu";
  r.time_s = solving.seconds();
  r.factor_s = report.time_setup_s;
  r.solve_s = report.time_solve_s;
  r.assemble_s = b.assemble_s;
  const auto fb = report.figures.find("factor_bytes");
  r.factor_bytes = fb != report.figures.end() ? fb->second : 0;
  r.peak_bytes = static_cast<double>(report.memory_bytes) - r.factor_bytes;
  const auto fl = report.figures.find("flops");
  r.flops = fl != report.figures.end() ? fl->second : 0;
  r.eliminate_s = report.time_setup_s;
  return r;
}

void write_csv(const std::vector<Row>& rows, const std::string& path) {
  CsvTable csv({"problem", "dofs", "solver", "device", "block", "time_s", "factor_s", "solve_s", "element_or_assembly_s",
                "peak_bytes_without_factor", "factor_bytes", "front_max", "front_rms", "front_bytes", "flops",
                "eliminate_s", "eliminate_gflops", "device_share", "max_rel_diff", "note"});
  for (const auto& r : rows)
    csv.add({r.problem, r.dofs, r.solver, r.device, r.block, r.time_s, r.factor_s, r.solve_s, r.assemble_s,
             r.peak_bytes, r.factor_bytes, r.front_max, r.front_rms, r.front_bytes, r.flops, r.eliminate_s,
             r.eliminate_s > 0 ? r.flops / r.eliminate_s * 1e-9 : 0.0, r.device_share, r.max_rel_diff, r.note});
  write_rows(csv, path);
}

void run(const Settings& settings) {
  std::vector<Row> rows;
  const auto wanted = [&](const std::string& solver) {
    return std::find(settings.solvers.begin(), settings.solvers.end(), solver) != settings.solvers.end();
  };
  const auto registered = [&](const std::string& method, const std::string& device) -> std::unique_ptr<LinearSolver> {
    if (!wanted(method)) return nullptr;
    SolverOptions options;
    options.method = parse_choice<SolverMethodId>(method).value();
    options.device = parse_choice<Device>(device).value();
    try {
      return make_solver(options);
    } catch (const SolverUnavailable& e) {
      std::cout << method << " left out: " << e.what() << "\n";
      return nullptr;
    }
  };
  auto band = registered("band-cholesky", "cpu");
  // multifrontal on each of the devices it has (cpu, cuda).
  std::vector<std::pair<std::string, std::unique_ptr<LinearSolver>>> multifrontal;
  double dgemm_gflops = 0;
  for (const auto& device : settings.devices) {
    if (device != "cpu" && device != "cuda") continue;
    auto solver = registered("multifrontal", device);
    if (!solver) continue;
    multifrontal.emplace_back(device, std::move(solver));
    if (device == "cuda") dgemm_gflops = cublas_dgemm_gflops();
  }
  if (dgemm_gflops > 0) std::printf("cuBLAS DGEMM on this device: %.0f GFLOP/s (n = 8192)\n", dgemm_gflops);
  std::printf("host threads: %d (OpenMP); BLAS %s\n", omp_get_max_threads(), blas_in_use().c_str());
  const bool cholmod_wanted = wanted("cholmod") && run_cholmod(CsrMatrix{}, {}).available;
  if (wanted("cholmod") && !cholmod_wanted) std::cout << "CHOLMOD left out: this build has none\n";

  std::printf("%-12s %8s %-14s %-7s %5s %9s %9s %8s %9s %9s %7s %7s %8s %6s %9s\n", "problem", "dofs", "solver", "device",
              "block", "time_s", "factor_s", "elem_s", "peak_MB*", "factor_MB", "fr_max", "fr_rms", "elim_GF", "dev_sh",
              "rel_diff");
  std::cout << "(* peak memory beyond the input, without the factor; CHOLMOD's with it. elem_s: element matrices "
               "(frontal, twice: prefront and elimination) or assembly (the others, not in their time_s))\n";
  std::vector<std::pair<const BoxKind*, int>> problems;
  for (int c : settings.sizes_2d) problems.push_back({&quad4, c});
  for (int c : settings.sizes_3d) problems.push_back({&hex8, c});
  for (int c : settings.sizes_tet10) problems.push_back({&tet10, c});
  for (const auto& [kind, cells] : problems) {
    const auto b = make_problem(*kind, cells);
    const auto dofs = b->dofs.num_dofs();
    const auto add = [&](Row r) {
      r.problem = b->name;
      r.dofs = dofs;
      print_row(r);
      rows.push_back(std::move(r));
    };

    CholmodRun cholmod;  // the fastest run
    for (const int threads : settings.cholmod_blas_threads) {
      if (!cholmod_wanted) break;
      CholmodRun run = run_cholmod(b->assembled.matrix, b->assembled.rhs, threads);
      const Row r = cholmod_row(*b, run);
      add(r);
      std::printf("  (%s)\n", r.note.c_str());
      if (!cholmod.available || r.time_s < cholmod_seconds(cholmod)) cholmod = std::move(run);
    }
    const std::vector<double>& truth = cholmod.solution;
    std::vector<double> u;
    if (band) {
      Row r = band_row(*b, *band, u);
      r.max_rel_diff = max_rel_diff(u, truth);
      add(r);
    }
    double cpu_s = 0;
    for (auto& [device, solver] : multifrontal) {
      Row r = multifrontal_row(*b, solver, device, dgemm_gflops, u);
      r.max_rel_diff = max_rel_diff(u, truth);
      const std::string note = r.note, large_fronts = r.large_fronts;
      if (!large_fronts.empty()) r.note += "; " + large_fronts;
      add(r);
      std::printf("  (%s)\n", note.c_str());  // where the time went
      if (!large_fronts.empty()) std::printf("  (%s)\n", large_fronts.c_str());
      if (device == "cpu") cpu_s = r.time_s;
      if (device != "cuda") continue;
      std::printf("  (multifrontal:cuda %.2f s:", r.time_s);
      if (cholmod.available) std::printf(" %.1fx CHOLMOD's %.2f s [target 5x];", cholmod_seconds(cholmod) / r.time_s, cholmod_seconds(cholmod));
      if (cpu_s > 0) std::printf(" %.1fx multifrontal:cpu's %.2f s", cpu_s / r.time_s, cpu_s);
      std::printf(")\n");
    }
    for (const auto& device : settings.devices) {
      if (!wanted("frontal")) break;
      const std::string backend = device == "cpu" ? "openmp" : device;
      const auto status = kernels::dense_backend_status(backend);
      if (!status.available) {
        std::cout << "frontal on " << device << " left out: " << status.reason << "\n";
        continue;
      }
      Row r = frontal_row(*b, device, device == "cpu" ? settings.cpu_block : settings.gpu_block, u);
      r.max_rel_diff = max_rel_diff(u, truth);
      add(r);
    }
  }
  write_csv(rows, settings.csv);
}

}  // namespace

int run_frontal_benchmark(int argc, char** argv) { return run_benchmark<Settings>("frontal", argc, argv, add_options, run); }

}  // namespace fem::bench

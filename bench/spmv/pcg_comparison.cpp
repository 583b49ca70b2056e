#include "bench/spmv/pcg_comparison.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/renumber.hpp"
#include "kernels/cpu/spmv_cpu.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"

namespace fem::bench {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

struct BoxSystem {
  CsrMatrix matrix;
  std::vector<double> rhs;
};

// ||f - K u|| / ||f|| on the host: the check that the solver's own estimate is not fooling us.
double true_residual(const BoxSystem& box, const std::vector<double>& u) {
  std::vector<double> ku(u.size());
  kernels::spmv_openmp(box.matrix, u, ku);
  double r2 = 0, f2 = 0;
  for (std::size_t i = 0; i < u.size(); ++i) r2 += (box.rhs[i] - ku[i]) * (box.rhs[i] - ku[i]), f2 += box.rhs[i] * box.rhs[i];
  return std::sqrt(r2 / f2);
}

BoxSystem assemble_elasticity_box(int cells) {
  BoxSpec spec;
  spec.size = {1.0, 1.0, 1.0};
  spec.divisions = {cells, cells, cells};
  spec.shape = ElementShape::Hexahedron;
  const Mesh mesh = make_box_mesh(spec);
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
  p.materials = {{200e9, 0.3, 7800, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.gravity = {0, 0, -9.81};
  std::vector<int> fixed;
  const auto* group = mesh.find_group("xmin");
  for (auto e : group->elements)
    for (int n : mesh.boundary.nodes_of(e)) fixed.push_back(n);
  p.dirichlet.push_back({"xmin", fixed, {true, true, true}, {0, 0, 0}, {}});
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node,
                                                        static_cast<int>(mesh.num_nodes()));
  const auto perm = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  const DofMap dofs = make_dof_map(mesh.num_nodes(), 3, perm.new_of_old);
  auto system = assemble(p, dofs, graph);
  apply_constraints(system.matrix, system.rhs, collect_constraints(p, dofs));
  return {std::move(system.matrix), std::move(system.rhs)};
}

}  // namespace

int run_pcg_comparison(int cells, int cpu_iterations, const std::string& preconditioner) {
  const auto t0 = Clock::now();
  const BoxSystem box = assemble_elasticity_box(cells);
  std::printf("elasticity box %d^3 hex8: %lld equations, %lld nonzeros, assembled in %.1f s\n", cells,
              static_cast<long long>(box.matrix.rows), static_cast<long long>(box.matrix.nnz()), since(t0));
  const AssembledSystem system{box.matrix, box.rhs};
  SolverOptions options;
  options.preconditioner = preconditioner;
  options.tolerance = 1e-8;
  options.progress = [](const std::string& line) { std::printf("  %s\n", line.c_str()); };
  int gpu_iterations = 0;
  try {
    std::vector<double> u(box.rhs.size(), 0.0);
    SolverOptions on_cuda = options;
    on_cuda.device = "cuda";
    const auto report = make_conjugate_gradient(on_cuda)->solve(system, u);
    gpu_iterations = report.iterations;
    std::printf("GPU PCG (cg:cuda, %s): %d iterations to %.1e (true residual %.1e), setup %.3f s (tuning %.3f s), "
                "solve %.3f s (%.3f ms per iteration)\n",
                preconditioner.c_str(), report.iterations, report.residual, true_residual(box, u), report.time_setup_s,
                report.figures.count("spmv_tuning_time_s") ? report.figures.at("spmv_tuning_time_s") : 0.0,
                report.time_solve_s, 1e3 * report.time_solve_s / std::max(1, report.iterations));
  } catch (const SolverUnavailable& e) {
    std::printf("GPU PCG: %s\n", e.what());
  }
  if (cpu_iterations > 0) {
    options.max_iterations = cpu_iterations;
    std::vector<double> u(box.rhs.size(), 0.0);
    SolveReport report;
    const auto t_cpu = Clock::now();
    try {
      report = make_conjugate_gradient(options)->solve(system, u);
    } catch (const SolveFailure&) {
      // expected: the iteration cap is far below convergence; only the time per iteration is wanted
    }
    const double per_iteration = since(t_cpu) / cpu_iterations;
    std::printf("CPU PCG (cg:cpu, %s): %.3f ms per iteration over %d iterations", preconditioner.c_str(),
                1e3 * per_iteration, cpu_iterations);
    if (gpu_iterations > 0) std::printf("; %d iterations would take %.1f s", gpu_iterations, per_iteration * gpu_iterations);
    std::printf("\n");
  }
  return 0;
}

}  // namespace fem::bench

#include "fem/app/check_command.hpp"
#include "fem/pipeline/make_mesh.hpp"

#include <cstdio>
#include <iomanip>
#include <ostream>

#include "fem/pipeline/load_cases.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/physics/problem.hpp"
#include "fem/resources/case_fit.hpp"
#include "fem/resources/method_choice.hpp"
#include "support/stopwatch.hpp"
#include "solvers/solver_table.hpp"
#include "support/host_memory.hpp"

namespace fem {

int check_case(const std::filesystem::path& case_file, const RunOverrides& overrides, std::ostream& log) {
  using resources::bytes_text;
  Case c = load_case_with(case_file, overrides);
  require_available_solver(method_to_check(c.solver), c.solver.device);
  const std::size_t available = host_available_memory();
  log << "fem: case     " << c.file.string() << ": " << c.title << " (valid)\n"
      << "fem: memory   " << bytes_text(static_cast<double>(available)) << " available\n";
  if (const std::size_t box = resources::box_case_bytes(c); box > 0)
    log << "fem: box      mesh, node graph and matrix about " << bytes_text(static_cast<double>(box)) << "\n";
  resources::require_mesh_fits(c, available);

  const Stopwatch meshing;
  const Mesh mesh = make_mesh(c.mesh);
  const double mesh_seconds = meshing.seconds();
  // The groups, materials and conditions (load cases' too) resolve against the mesh; a heat case
  // that loads the elasticity must resolve against it too (its field is not solved in a dry run:
  // any stands in).
  const bool solved_temperature = c.temperature && !c.temperature->from.empty();
  if (solved_temperature) build_problem(load_case(c.temperature->from), mesh);
  resolve_load_cases(
      c, build_problem(c, mesh, solved_temperature ? std::vector<double>(mesh.num_nodes(), 0.0) : std::vector<double>{}));
  const int d = c.physics.type == PhysicsType::Heat ? 1 : mesh.dimension;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  resources::resolve_auto_method(c, graph, mesh.dimension, d);
  const NodeOrdering order = order_nodes(graph, c.solver.renumber, c.solver.method, d);
  const resources::SystemSize system = resources::system_size(graph, order.after, mesh.dimension, d);
  log << "fem: mesh     " << with_commas(static_cast<long long>(mesh.num_nodes())) << " nodes, "
      << with_commas(static_cast<long long>(mesh.cells.size())) << " elements (meshed in " << std::setprecision(2) << mesh_seconds << std::setprecision(6) << " s)\n"
      << "fem: system   " << with_commas(system.dofs) << " equations, about " << with_commas(system.nnz) << " nonzeros\n"
      << "fem: renumber " << order.method << ": bandwidth " << with_commas(order.before.bandwidth) << " -> "
      << with_commas(order.after.bandwidth) << ", profile " << with_commas(order.before.profile) << " -> "
      << with_commas(order.after.profile) << ", max wavefront " << with_commas(order.after.max_wavefront) << "\n";
  log << "fem: solver   " << c.solver.method << " on " << c.solver.device;
  if (takes_preconditioner(c.solver.method)) {
    log << ", preconditioner " << name_of(effective_preconditioner(c.solver.preconditioner));
    if (c.solver.preconditioner == Preconditioner::Auto)
      log << " (auto: smoothed-aggregation AMG applies to every elasticity and heat system; its iterations hardly grow "
             "with the mesh)";
  }
  if (!c.solver.method_chosen_because.empty())
    log << "\nfem: auto     solver " << c.solver.method << ": " << c.solver.method_chosen_because;
  if (order.method.rfind("auto/", 0) == 0)
    log << "\nfem: auto     renumber " << order.method.substr(5) << ": the ordering that serves "
        << c.solver.method << " best among those tried (the original numbering is kept unless another is clearly better)";
  log << "\n\n";

  const resources::MachineRates& rates = resources::machine_rates();
  const resources::SolveWork work{c.solver.preconditioner, c.solver.tolerance, 1};
  char line[240];
  std::snprintf(line, sizeof line, "  %-14s %12s %12s  %s\n", "method", "memory", "time (rough)", "what it counts");
  log << line;
  for (const auto& method : solver_table()) {
    const auto e = resources::estimate_time(method.id, system, work, rates);
    const std::size_t bytes = resources::solve_bytes(method.id, system);
    std::snprintf(line, sizeof line, "  %-14s %12s %10.3g s  %s%s\n", name_of(method.id), bytes_text(static_cast<double>(bytes)).c_str(),
                  e.seconds(1), e.basis.c_str(),
                  !method.built() ? "  (not in this build)" : bytes > available ? "  (does not fit)" : "");
    log << line;
  }
  log << "\n  memory: the matrix (" << bytes_text(static_cast<double>(resources::matrix_bytes(system.dofs, system.nnz)))
      << ", not for frontal) plus the solver's own; time: one solve on this machine's CPU at the "
      << std::setprecision(3) << rates.flops_per_second / 1e9 << " GFLOP/s (DGEMM) and " << rates.bytes_per_second / 1e9
      << " GB/s (STREAM triad) measured now, " << std::setprecision(2) << rates.parallel_region_s * 1e6
      << " us a parallel region (more when other processes share the cores), within a factor of about 2\n";
  return 0;
}

}  // namespace fem

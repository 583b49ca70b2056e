#include "fem/app/renumber_command.hpp"
#include "fem/pipeline/make_mesh.hpp"

#include <cstdio>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "fem/config.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "support/atomic_output.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/physics/problem.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "fem/renumber/sparsity_plot.hpp"
#include "fem/resources/method_choice.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_METIS
#include "solvers/multifrontal/symbolic_analysis.hpp"
#endif

namespace fem {

namespace fs = std::filesystem;

namespace {

#if FEM_WITH_METIS
// The multifrontal solver orders by nested dissection itself (METIS): the entries its factor L
// stores, beside the envelope (profile + equations) that `envelope` leaves the band and profile solvers.
std::string nested_dissection_fill(const renumber::NodeGraph& graph, int dofs_per_node, const NodeOrdering& envelope) {
  multifrontal::BlockGraph nodes;
  nodes.block = dofs_per_node;
  nodes.nodes = graph.num_nodes();
  nodes.offset.assign(graph.offset.begin(), graph.offset.end());
  nodes.neighbour.assign(graph.neighbour.begin(), graph.neighbour.end());
  const auto f = multifrontal::analyse(nodes, 1);
  const long long equations = static_cast<long long>(graph.num_nodes()) * dofs_per_node;
  return "nested dissection (METIS, the multifrontal solver's own ordering): L stores " +
         with_commas(f.factor_entries()) + " entries, largest front " + with_commas(f.front_max) + "; the envelope of " +
         envelope.method + " " + with_commas(envelope.after.profile + equations) + "\n";
}
#endif

}  // namespace

fs::path renumber_report(const fs::path& case_file, const RunOverrides& overrides, const RenumberReportOptions& options,
                         std::ostream& log) {
  using namespace renumber;
  Case c = load_case_with(case_file, overrides);
  const Mesh mesh = make_mesh(c.mesh);
  const int d = c.physics.type == PhysicsType::Heat ? 1 : mesh.dimension;
  const auto nodes = static_cast<int>(mesh.num_nodes());
  const NodeGraph graph = node_graph_from_elements(mesh.cells.offset, mesh.cells.node, nodes);
  resources::resolve_auto_method(c, graph, mesh.dimension, d);  // the auto row orders for the method fem run would use

  AtomicOutput table_output(c.output.directory);
  std::ofstream csv(table_output.stage(c.name + "-renumber.csv"));
  csv << "method,dofs_per_node,bandwidth,profile,max_wavefront,rms_wavefront,front_max,front_rms,seconds\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-11s %12s %16s %12s %12s %12s %12s %9s\n", "method", "bandwidth", "profile",
                "max wave", "rms wave", "front max", "front rms", "time s");
  log << c.name << ": " << nodes << " nodes, " << mesh.cells.size() << " elements, " << d << " dofs per node\n" << line;
  // One row per method, and `auto` as the row of what it picks for the case's solver.
  NodeOrdering chosen;
  for (const std::string name : {"none", "rcm", "gps", "sloan", "auto"}) {
    const Stopwatch ordering;
    NodeOrdering o = order_nodes(graph, name, c.solver.method, d);
    const double seconds = ordering.seconds();
    const auto& m = o.after;
    const auto order = element_order_by_nodes(mesh.cells.offset, mesh.cells.node, o.permutation);
    const auto front = front_width(mesh.cells.offset, mesh.cells.node, nodes, order, d);
    std::snprintf(line, sizeof line, "%-11s %12lld %16lld %12lld %12.1f %12lld %12.1f %9.3f\n", o.method.c_str(),
                  static_cast<long long>(m.bandwidth), static_cast<long long>(m.profile),
                  static_cast<long long>(m.max_wavefront), m.rms_wavefront, static_cast<long long>(front.max), front.rms,
                  seconds);
    log << line;
    csv << o.method << "," << d << "," << m.bandwidth << "," << m.profile << "," << m.max_wavefront << "," << m.rms_wavefront
        << "," << front.max << "," << front.rms << "," << seconds << "\n";
    if (name == c.solver.renumber) chosen = std::move(o);
  }
#if FEM_WITH_METIS
  log << nested_dissection_fill(graph, d, chosen);
#endif
  csv.close();
  if (!csv) throw std::runtime_error(c.output.directory.string() + ": cannot write the renumbering table");
  // The table is written first: a plot that fails (no matplotlib) leaves it in place.
  for (const auto& p : table_output.commit()) log << "wrote " << p.string() << "\n";
  if (!options.plot) return {};
  AtomicOutput plot_output(c.output.directory);
  write_sparsity_png(graph, chosen.permutation, plot_output.stage(c.name + "-sparsity.png").string(), c.title, chosen.method, d);
  const auto written = plot_output.commit();
  for (const auto& p : written) log << "wrote " << p.string() << "\n";
  return written.front();
}

}  // namespace fem

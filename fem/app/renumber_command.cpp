#include "fem/app/renumber_command.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>

#include "fem/output/atomic_output.hpp"
#include "fem/physics/problem.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "fem/renumber/sparsity_plot.hpp"

namespace fem {

namespace fs = std::filesystem;

fs::path renumber_report(const fs::path& case_file, const RunOverrides& overrides, const RenumberReportOptions& options,
                         std::ostream& log) {
  using namespace renumber;
  Case c = load_case(case_file);
  apply_overrides(c, overrides);
  const Mesh mesh = make_mesh(c.mesh);
  const int d = c.physics.type == PhysicsType::Heat ? 1 : mesh.dimension;
  const auto nodes = static_cast<int>(mesh.num_nodes());
  const NodeGraph graph = node_graph_from_elements(mesh.cells.offset, mesh.cells.node, nodes);

  AtomicOutput output(c.output.directory);
  std::ostringstream csv;
  csv << "method,dofs_per_node,bandwidth,profile,max_wavefront,rms_wavefront,front_max,front_rms,seconds\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-7s %12s %16s %12s %12s %12s %12s %9s\n", "method", "bandwidth", "profile",
                "max wave", "rms wave", "front max", "front rms", "time s");
  log << c.name << ": " << nodes << " nodes, " << mesh.cells.size() << " elements, " << d << " dofs per node\n" << line;
  Permutation chosen;
  const auto wanted = parse_renumber_method(c.solver.renumber == "none" || c.solver.renumber == "auto" ? "rcm" : c.solver.renumber);
  for (auto method : {RenumberMethod::None, RenumberMethod::Rcm, RenumberMethod::Gps, RenumberMethod::Sloan}) {
    const auto t0 = std::chrono::steady_clock::now();
    Permutation p = renumber::renumber(graph, method);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto m = ordering_metrics(graph, p, d);
    const auto order = element_order_by_nodes(mesh.cells.offset, mesh.cells.node, p);
    const auto front = front_width(mesh.cells.offset, mesh.cells.node, nodes, order, d);
    const auto name = std::string(method_name(method));
    std::snprintf(line, sizeof line, "%-7s %12lld %16lld %12lld %12.1f %12lld %12.1f %9.3f\n", name.c_str(),
                  static_cast<long long>(m.bandwidth), static_cast<long long>(m.profile),
                  static_cast<long long>(m.max_wavefront), m.rms_wavefront, static_cast<long long>(front.max), front.rms,
                  seconds);
    log << line;
    csv << name << "," << d << "," << m.bandwidth << "," << m.profile << "," << m.max_wavefront << "," << m.rms_wavefront
        << "," << front.max << "," << front.rms << "," << seconds << "\n";
    if (method == wanted) chosen = std::move(p);
  }
  output.stage_text(c.name + "-renumber.csv", csv.str());
  fs::path png;
  if (options.plot) {
    const auto label = std::string(method_name(wanted));
    write_sparsity_png(graph, chosen, output.stage(c.name + "-sparsity.png").string(), c.title, label, d);
    png = c.output.directory / (c.name + "-sparsity.png");
  }
  for (const auto& p : output.commit()) log << "wrote " << p.string() << "\n";
  return png;
}

}  // namespace fem

// `fem bench renumber`: bandwidth, profile, wavefront, frontal-solver front and time of every
// renumbering method on the meshes of case files and on structured boxes (as meshed, and with the
// nodes shuffled, as an unstructured mesher might leave them), printed as a table and written as CSV.
// Case files are meshed as `fem run` would (Gmsh for .geo/.msh, the built-in box otherwise).
#include "bench/renumber/renumber_benchmark.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/pipeline/make_mesh.hpp"
#include "fem/case/case.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "fem/renumber/sparsity_plot.hpp"
#include "bench/benchmark_command.hpp"
#include "support/csv_table.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {
namespace {

using namespace fem::renumber;

struct BenchGraph {
  std::string name;
  int dofs_per_node;
  fem::BoxSpec spec;
  bool shuffle;
  std::filesystem::path case_file;  // when set, the mesh comes from this case instead of `spec`
};

std::vector<BenchGraph> case_graphs(const std::vector<std::string>& files) {
  std::vector<BenchGraph> graphs;
  for (const auto& f : files) {
    const fem::Case c = fem::load_case(f);
    BenchGraph g;
    g.name = c.name;
    g.dofs_per_node = c.physics.type == fem::PhysicsType::Heat ? 1 : 0;  // 0: the mesh's dimension
    g.shuffle = false;
    g.case_file = f;
    graphs.push_back(g);
  }
  return graphs;
}

fem::Mesh bench_mesh(BenchGraph& bg) {
  if (bg.case_file.empty()) return fem::make_box_mesh(bg.spec);
  fem::Mesh mesh = fem::make_mesh(fem::load_case(bg.case_file).mesh);
  if (bg.dofs_per_node == 0) bg.dofs_per_node = mesh.dimension;
  return mesh;
}

std::vector<BenchGraph> bench_graphs(bool quick) {
  using fem::ElementShape;
  std::vector<BenchGraph> graphs{
      {"quad4-300x300", 2, {{1, 1}, {300, 300}, ElementShape::Quadrilateral, 1, false}, false, {}},
      {"quad4-300x300-shuffled", 2, {{1, 1}, {300, 300}, ElementShape::Quadrilateral, 1, false}, true, {}},
      {"quad9-150x150", 2, {{1, 1}, {150, 150}, ElementShape::Quadrilateral, 2, false}, false, {}},
      {"quad8-400x100-shuffled", 2, {{4, 1}, {400, 100}, ElementShape::Quadrilateral, 2, true}, true, {}},
      {"tri6-120x120-shuffled", 2, {{1, 1}, {120, 120}, ElementShape::Triangle, 2, false}, true, {}},
      {"hex8-45^3", 3, {{1, 1, 1}, {45, 45, 45}, ElementShape::Hexahedron, 1, false}, false, {}},
      {"hex8-45^3-shuffled", 3, {{1, 1, 1}, {45, 45, 45}, ElementShape::Hexahedron, 1, false}, true, {}},
      {"hex8-80x20x20-shuffled", 3, {{4, 1, 1}, {80, 20, 20}, ElementShape::Hexahedron, 1, false}, true, {}},
      {"hex20-20^3", 3, {{1, 1, 1}, {20, 20, 20}, ElementShape::Hexahedron, 2, true}, false, {}},
      {"hex27-16^3-shuffled", 3, {{1, 1, 1}, {16, 16, 16}, ElementShape::Hexahedron, 2, false}, true, {}},
      {"tet10-14^3-shuffled", 3, {{1, 1, 1}, {14, 14, 14}, ElementShape::Tetrahedron, 2, false}, true, {}},
  };
  if (!quick) graphs.push_back({"hex8-99^3", 3, {{1, 1, 1}, {99, 99, 99}, ElementShape::Hexahedron, 1, false}, false, {}});
  return graphs;
}

void shuffle_nodes(fem::ElementSet& cells, int num_nodes, unsigned seed) {
  std::vector<int> relabel(num_nodes);
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), std::mt19937(seed));
  for (int& v : cells.node) v = relabel[v];
}

// Binary CSR for compare_scipy.py: int64 n, int64 nnz, int64 offsets[n+1], int32 neighbours[nnz];
// and the RCM numbering as int32 new_of_old[n].
void export_graph(const std::filesystem::path& dir, const std::string& name, const NodeGraph& g,
                  const Permutation& rcm) {
  std::ofstream out(dir / (name + ".csr.bin"), std::ios::binary);
  const std::int64_t n = g.num_nodes(), nnz = static_cast<std::int64_t>(g.num_edges_directed());
  out.write(reinterpret_cast<const char*>(&n), 8);
  out.write(reinterpret_cast<const char*>(&nnz), 8);
  std::vector<std::int64_t> offsets(g.offset.begin(), g.offset.end());
  out.write(reinterpret_cast<const char*>(offsets.data()), static_cast<std::streamsize>(offsets.size() * 8));
  out.write(reinterpret_cast<const char*>(g.neighbour.data()), static_cast<std::streamsize>(g.neighbour.size() * 4));
  std::ofstream perm(dir / (name + ".rcm.bin"), std::ios::binary);
  perm.write(reinterpret_cast<const char*>(rcm.new_of_old.data()), static_cast<std::streamsize>(n * 4));
  if (!out || !perm) throw std::runtime_error("cannot write the export of " + name + " to " + dir.string());
}

struct Options {
  bool quick = false;
  std::string csv = "bench_renumber.csv";
  std::string export_dir, plot_dir;
  std::vector<std::string> cases;
};

void add_options(CLI::App& app, Options& o) {
  app.description(
      "Bandwidth, profile, wavefront, front and time of none/rcm/gps/sloan on case meshes and boxes (as "
      "meshed and shuffled)");
  app.add_flag("--quick", o.quick, "leave out the 1e6-node box");
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
  app.add_option("--export", o.export_dir,
                 "write each graph (CSR) and our RCM numbering for bench/renumber/compare_scipy.py")
      ->type_name("DIR");
  app.add_option("--plot", o.plot_dir, "write a before/after sparsity PNG per graph (RCM)")->type_name("DIR");
  app.add_option("cases", o.cases, "case files whose meshes join the boxes")
      ->type_name("CASE.yaml")
      ->check(CLI::ExistingFile);
}

void run(const Options& options) {
  for (const std::string& dir : {options.export_dir, options.plot_dir})
    if (!dir.empty()) std::filesystem::create_directories(dir);
  fem::CsvTable csv({"graph", "nodes", "elements", "node_nnz", "dofs_per_node", "graph_s", "method", "bandwidth",
                     "profile", "max_wavefront", "rms_wavefront", "front_max", "front_rms", "time_s"});
  std::printf("%-24s %8s %5s %-6s %8s %13s %8s %9s %9s %9s %8s\n", "graph", "nodes", "graph_s", "method",
              "bandwidth", "profile", "max_wf", "rms_wf", "front_max", "front_rms", "time_s");

  struct ElementOrderRow {
    std::string graph;
    FrontWidth by_sloan_nodes, by_element_sloan;
    double element_sloan_s;
  };
  std::vector<ElementOrderRow> element_rows;

  std::vector<BenchGraph> graphs = case_graphs(options.cases);
  for (const auto& box : bench_graphs(options.quick)) graphs.push_back(box);
  for (BenchGraph& bg : graphs) {
    fem::Mesh mesh = bench_mesh(bg);
    const int n = static_cast<int>(mesh.num_nodes());
    if (bg.shuffle) shuffle_nodes(mesh.cells, n, 2026);
    const auto& cells = mesh.cells;

    const fem::Stopwatch graphing;
    const NodeGraph g = node_graph_from_elements(cells.offset, cells.node, n);
    const double graph_s = graphing.seconds();

    FrontWidth sloan_front;
    for (RenumberMethod method :
         {RenumberMethod::None, RenumberMethod::Rcm, RenumberMethod::Gps, RenumberMethod::Sloan}) {
      const fem::Stopwatch renumbering;
      const Permutation p = fem::renumber::renumber(g, method);
      const double time_s = renumbering.seconds();
      const OrderingMetrics m = ordering_metrics(g, p, bg.dofs_per_node);
      const FrontWidth front =
          front_width(cells.offset, cells.node, n, element_order_by_nodes(cells.offset, cells.node, p), bg.dofs_per_node);
      if (method == RenumberMethod::Sloan) sloan_front = front;
      std::printf("%-24s %8d %7.3f %-6s %9lld %13lld %8lld %9.1f %9lld %9.1f %8.3f\n", bg.name.c_str(), n, graph_s,
                  std::string(method_name(method)).c_str(), (long long)m.bandwidth, (long long)m.profile,
                  (long long)m.max_wavefront, m.rms_wavefront, (long long)front.max, front.rms, time_s);
      csv.add({bg.name, n, cells.size(), g.num_edges_directed() + n, bg.dofs_per_node, graph_s,
               std::string(method_name(method)), m.bandwidth, m.profile, m.max_wavefront, m.rms_wavefront, front.max,
               front.rms, time_s});
      if (method == RenumberMethod::Rcm && !options.export_dir.empty())
        export_graph(options.export_dir, bg.name, g, p);
      if (method == RenumberMethod::Rcm && !options.plot_dir.empty())
        write_sparsity_png(g, p, (std::filesystem::path(options.plot_dir) / (bg.name + ".png")).string(), bg.name,
                           "rcm", bg.dofs_per_node);
    }
    std::fflush(stdout);

    const fem::Stopwatch ordering_elements;
    const std::vector<int> element_sloan = element_order_sloan(cells.offset, cells.node, n);
    const double element_sloan_s = ordering_elements.seconds();
    element_rows.push_back({bg.name, sloan_front,
                            front_width(cells.offset, cells.node, n, element_sloan, bg.dofs_per_node),
                            element_sloan_s});
  }

  std::printf("\nElement order for the frontal solver (front in dofs):\n%-24s %22s %22s %10s\n", "graph",
              "by Sloan nodes max/rms", "element Sloan max/rms", "elem_s");
  for (const auto& r : element_rows)
    std::printf("%-24s %10lld %11.1f %10lld %11.1f %10.3f\n", r.graph.c_str(), (long long)r.by_sloan_nodes.max,
                r.by_sloan_nodes.rms, (long long)r.by_element_sloan.max, r.by_element_sloan.rms, r.element_sloan_s);
  write_rows(csv, options.csv);
}

}  // namespace

int run_renumber_benchmark(int argc, char** argv) { return run_benchmark<Options>("renumber", argc, argv, add_options, run); }

}  // namespace fem::bench

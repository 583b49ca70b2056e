// Assembly: element colouring against per-thread value buffers, side by side on the same
// meshes and threads. Prints a table and writes CSV.
#include <omp.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/assembly/assembly_benchmark.hpp"
#include "bench/benchmark_command.hpp"

#include "fem/assembly/assembler.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "support/csv_table.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {

namespace {

struct Options {
  std::string csv = "assembly.csv";
};

void add_options(CLI::App& app, Options& o) {
  app.description("Times colouring and per-thread buffers on box meshes (threads: OMP_NUM_THREADS)");
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
}

void run(const Options& options) {
  struct Size {
    const char* name;
    BoxSpec spec;
  };
  const std::vector<Size> sizes = {
      {"hex8 40^3", {{1, 1, 1}, {40, 40, 40}, ElementShape::Hexahedron, 1, false}},
      {"hex27 16^3", {{1, 1, 1}, {16, 16, 16}, ElementShape::Hexahedron, 2, false}},
      {"tet10 12^3", {{1, 1, 1}, {12, 12, 12}, ElementShape::Tetrahedron, 2, false}},
      {"quad9 300^2", {{1, 1}, {300, 300}, ElementShape::Quadrilateral, 2, false}},
  };
  CsvTable csv({"mesh", "elements", "dofs", "nnz", "threads", "strategy", "colors", "time_s"});
  std::printf("%-12s %9s %9s %11s %7s %10s %7s %9s %7s\n", "mesh", "elements", "dofs", "nnz", "threads", "strategy",
              "colors", "time_s", "ratio");
  for (const auto& size : sizes) {
    const Mesh mesh = make_box_mesh(size.spec);
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, mesh.dimension == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 1.0,
                 mesh.dimension};
    p.materials = {{210e9, 0.3, 7850, 0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node());
    double coloring_time = 0;
    for (auto strategy : {AssemblyStrategy::Coloring, AssemblyStrategy::ThreadBuffers}) {
      AssembledSystemData out;
      const double t = spread_of(time_each(3, [&] { out = assemble(p, dofs, graph, strategy); })).median;
      const bool coloring = strategy == AssemblyStrategy::Coloring;
      if (coloring) coloring_time = t;
      const char* name = coloring ? "coloring" : "buffers";
      std::printf("%-12s %9zu %9lld %11lld %7d %10s %7d %9.3f %7.2f\n", size.name, mesh.cells.size(),
                  static_cast<long long>(dofs.num_dofs()), static_cast<long long>(out.matrix.nnz()), omp_get_max_threads(),
                  name, out.colors, t, t / coloring_time);
      csv.add({size.name, mesh.cells.size(), dofs.num_dofs(), out.matrix.nnz(), omp_get_max_threads(), name, out.colors, t});
    }
  }
  std::printf("ratio: time / colouring time, same mesh and threads\n");
  write_rows(csv, options.csv);
}

}  // namespace

int run_assembly_benchmark(int argc, char** argv) { return run_benchmark<Options>("assembly", argc, argv, add_options, run); }

}  // namespace fem::bench

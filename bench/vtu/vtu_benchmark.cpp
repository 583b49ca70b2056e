// fem-bench-vtu: write_vtu alone on the fields an elasticity run of a hex8 box writes
// (displacement, strain, stress, von_mises, reaction, material), for each compression: file
// size, seconds (median of the repeats) and MB/s, as a table and CSV. The fields are smooth
// functions of the coordinates with round-off in their last digits, so they compress like
// computed results: neither like noise nor like exact repeated values.
#include "bench/vtu/vtu_benchmark.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/benchmark_command.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/output/vtu_writer.hpp"
#include "support/statistics.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {
namespace {

struct Options {
  int divisions = 110;  // 111^3 = 1.37e6 nodes
  int repeat = 3;
  std::string dir = ".";
  std::string csv = "bench_vtu.csv";
};

void add_options(CLI::App& app, Options& o) {
  app.description("The .vtu writer alone: a hex8 box's elasticity fields written with each compression.");
  add_checked_option(app, "--divisions", o.divisions, "cells per axis of the unit cube", CLI::Range(1, 400));
  add_checked_option(app, "--repeat", o.repeat, "writes per compression (the median is reported)", CLI::Range(1, 100));
  app.add_option("--dir", o.dir, "folder for the .vtu (removed after each write)")->capture_default_str();
  app.add_option("--csv", o.csv, "CSV output")->capture_default_str();
}

struct Fields {
  std::vector<double> displacement, strain, stress, von_mises, reaction;
};

// A relative perturbation of about 1e-12, different at every node: the round-off of a solve.
double round_off(std::size_t i) {
  std::uint64_t h = i * 0x9E3779B97F4A7C15ull;
  h ^= h >> 29;
  return 1.0 + 1e-12 * static_cast<double>(h % 2001) / 1000.0;
}

Fields smooth_fields(const Mesh& mesh) {
  const std::size_t n = mesh.num_nodes();
  Fields f;
  f.displacement.resize(3 * n);
  f.strain.resize(6 * n);
  f.stress.resize(6 * n);
  f.von_mises.resize(n);
  f.reaction.assign(3 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = mesh.coords[3 * i], y = mesh.coords[3 * i + 1], z = mesh.coords[3 * i + 2];
    const double noise = round_off(i);
    for (int k = 0; k < 3; ++k) f.displacement[3 * i + k] = 1e-4 * std::sin(x + k) * (y * y + 0.3 * z) * noise;
    for (int k = 0; k < 6; ++k) {
      f.strain[6 * i + k] = 1e-4 * std::cos(x * (k + 1)) * (1 + y * z) * noise;
      f.stress[6 * i + k] = 2.1e11 * f.strain[6 * i + k] * round_off(i + k + 1);
    }
    f.von_mises[i] = std::abs(f.stress[6 * i]) + std::abs(f.stress[6 * i + 3]);
    if (x == 0) f.reaction[3 * i + 2] = 1e3 * (y + z);  // only where the box is held
  }
  return f;
}

void run(const Options& o) {
  const Mesh mesh = make_box_mesh({{1, 1, 1}, {o.divisions, o.divisions, o.divisions}, ElementShape::Hexahedron, 1, false});
  const Fields f = smooth_fields(mesh);
  const std::vector<PointArray> points{{"displacement", 3, f.displacement},
                                       {"strain", 6, f.strain},
                                       {"stress", 6, f.stress},
                                       {"von_mises", 1, f.von_mises},
                                       {"reaction", 3, f.reaction}};
  const std::vector<CellArray> cells{{"material", std::vector<double>(mesh.cells.size(), 1.0)}};
  const std::filesystem::path path = std::filesystem::path(o.dir) / "fem-bench-vtu.vtu";
  std::printf("hex8 box %d^3: %zu nodes, %zu cells; %d writes each, median\n\n", o.divisions, mesh.num_nodes(),
              mesh.cells.size(), o.repeat);
  std::printf("%-12s %10s %10s %10s\n", "compression", "MB", "seconds", "MB/s");
  CsvTable rows({"compression", "nodes", "bytes", "seconds", "mb_per_s"});
  for (VtuCompression c : {VtuCompression::None, VtuCompression::Lz4, VtuCompression::Zlib}) {
    std::uintmax_t bytes = 0;
    std::vector<double> seconds;
    for (int r = 0; r < o.repeat; ++r) {
      std::filesystem::remove(path);  // every write makes a new file, as a run does
      const Stopwatch writing;
      bytes = write_vtu(path, mesh, points, cells, c);
      seconds.push_back(writing.seconds());
    }
    std::filesystem::remove(path);
    const double s = spread_of(seconds).median, mb = bytes / 1e6;
    std::printf("%-12s %10.1f %10.3f %10.1f\n", name_of(c), mb, s, mb / s);
    rows.add({name_of(c), mesh.num_nodes(), bytes, s, mb / s});
  }
  write_rows(rows, o.csv);
}

}  // namespace

int run_vtu_benchmark(int argc, char** argv) { return run_benchmark<Options>("vtu", argc, argv, add_options, run); }

}  // namespace fem::bench

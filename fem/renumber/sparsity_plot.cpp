#include "fem/renumber/sparsity_plot.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "fem/output/external_command.hpp"
#include "fem/output/scratch_directory.hpp"
#include "fem/renumber/ordering_metrics.hpp"

namespace fem::renumber {
namespace {

namespace fs = std::filesystem;

// Above this many nodes the pattern goes to the script as counts on a grid of bins.
constexpr int max_nodes_drawn_as_points = 20000;
constexpr int histogram_bins = 600;

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

template <class T>
void write_binary(const fs::path& path, const std::vector<T>& values) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(T)));
  if (!out) throw std::runtime_error("sparsity plot: cannot write " + path.string());
}

// One panel's data file: the (row, column) pairs of every nonzero, or, for big graphs, the
// nonzero counts on a bins x bins grid (row-major, float32). Returns the panel's JSON entry.
std::string write_panel(const NodeGraph& graph, const Permutation& numbering, const fs::path& file,
                        const std::string& label, int dofs_per_node) {
  const int n = graph.num_nodes();
  const OrderingMetrics m = ordering_metrics(graph, numbering, dofs_per_node);
  const bool as_points = n <= max_nodes_drawn_as_points;
  if (as_points) {
    std::vector<std::int32_t> pairs;
    pairs.reserve(2 * (graph.num_edges_directed() + n));
    for (int old = 0; old < n; ++old) {
      const int row = numbering.new_of_old[old];
      pairs.insert(pairs.end(), {row, row});
      for (int v : graph.neighbours_of(old)) pairs.insert(pairs.end(), {row, numbering.new_of_old[v]});
    }
    write_binary(file, pairs);
  } else {
    std::vector<float> counts(static_cast<std::size_t>(histogram_bins) * histogram_bins, 0.0f);
    auto bin = [&](int k) { return static_cast<std::size_t>(static_cast<std::int64_t>(k) * histogram_bins / n); };
    for (int old = 0; old < n; ++old) {
      const std::size_t row = bin(numbering.new_of_old[old]);
      counts[row * histogram_bins + row] += 1;
      for (int v : graph.neighbours_of(old)) counts[row * histogram_bins + bin(numbering.new_of_old[v])] += 1;
    }
    write_binary(file, counts);
  }
  return "{\"label\": " + json_string(label) + ", \"file\": " + json_string(file.string()) + ", \"kind\": \"" +
         (as_points ? "points" : "histogram") + "\", \"bins\": " + std::to_string(histogram_bins) +
         ", \"bandwidth\": " + std::to_string(m.bandwidth) + ", \"profile\": " + std::to_string(m.profile) + "}";
}

}  // namespace

void write_sparsity_png(const NodeGraph& graph, const Permutation& after, const std::string& png_path,
                        const std::string& title, const std::string& after_label, int dofs_per_node) {
  if (after.size() != graph.num_nodes())
    throw std::invalid_argument("sparsity plot: permutation of " + std::to_string(after.size()) +
                                " nodes for a graph of " + std::to_string(graph.num_nodes()));
  const fs::path script = FEM_SPARSITY_PLOT_SCRIPT;
  if (!fs::exists(script)) throw std::runtime_error("sparsity plot: the plotting script " + script.string() + " is missing");
  const std::string python = python_with_module("matplotlib", "sparsity plot", "python3-matplotlib");

  const ScratchDirectory dir_folder("fem-sparsity");
  const fs::path& dir = dir_folder.path();

  const std::string meta = "{\"title\": " + json_string(title) + ", \"n\": " + std::to_string(graph.num_nodes()) +
                           ", \"dofs_per_node\": " + std::to_string(dofs_per_node) + ", \"panels\": [" +
                           write_panel(graph, Permutation::identity(graph.num_nodes()), dir / "before.bin",
                                       "original numbering", dofs_per_node) +
                           ", " + write_panel(graph, after, dir / "after.bin", after_label, dofs_per_node) + "]}\n";
  std::ofstream(dir / "meta.json") << meta;

  run_command(shell_quoted(python) + " " + shell_quoted(script.string()) + " " + shell_quoted((dir / "meta.json").string()) +
                  " " + shell_quoted(png_path),
              "sparsity plot: " + script.string() + " writing " + png_path);
}

}  // namespace fem::renumber

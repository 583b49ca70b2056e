#pragma once
// A picture of the band: the sparsity pattern under the original numbering and under a
// renumbering, side by side, drawn by scripts/plot_sparsity.py (python3 + matplotlib).
#include <string>

#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"

namespace fem::renumber {

// Writes `png_path` with two panels: the dof matrix pattern as numbered now, and under `after`
// (labelled `after_label`, e.g. "rcm"); each panel's title gives the dof matrix's bandwidth
// and profile with `dofs_per_node`. Graphs above 20000 nodes are drawn as a 2D histogram of
// the nonzeros. Throws std::runtime_error when python3 or matplotlib is missing or the
// script fails, std::invalid_argument for a permutation of the wrong size.
void write_sparsity_png(const NodeGraph& graph, const Permutation& after, const std::string& png_path,
                        const std::string& title, const std::string& after_label, int dofs_per_node = 1);

}  // namespace fem::renumber

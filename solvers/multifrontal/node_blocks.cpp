#include "solvers/multifrontal/node_blocks.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fem::multifrontal {

namespace {

// The blocks row r reaches, appended to `out` (unsorted, may repeat).
void blocks_of_row(const CsrMatrix& a, std::int64_t r, int block, std::vector<std::int32_t>& out) {
  for (auto e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) out.push_back(a.col[e] / block);
}

void sort_unique(std::vector<std::int32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

bool looks_like_nodes(const CsrMatrix& a, int block) {
  if (a.rows % block != 0) return false;
  std::vector<std::int32_t> first, other;
  for (std::int64_t node = 0; node < a.rows / block; ++node) {
    first.clear();
    bool have_first = false;
    for (int k = 0; k < block; ++k) {
      const std::int64_t r = node * block + k;
      if (a.row_ptr[r + 1] - a.row_ptr[r] <= 1) continue;  // a constrained equation: only its diagonal
      auto& target = have_first ? other : first;
      target.clear();
      blocks_of_row(a, r, block, target);
      sort_unique(target);
      if (have_first && other != first) return false;
      have_first = true;
    }
  }
  return true;
}

// The blocks other than `node` that its rows reach, sorted, each once, into `row`; seen_by[v] is
// the last node that met block v.
void neighbour_blocks(const CsrMatrix& a, std::int32_t node, int block, std::vector<std::int32_t>& seen_by,
                      std::vector<std::int32_t>& row) {
  row.clear();
  for (std::int64_t r = std::int64_t{node} * block; r < std::int64_t{node + 1} * block; ++r)
    for (auto e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) {
      const std::int32_t v = a.col[e] / block;
      if (v != node && seen_by[v] != node) {
        seen_by[v] = node;
        row.push_back(v);
      }
    }
  std::sort(row.begin(), row.end());
}

}  // namespace

int choose_block_size(const CsrMatrix& matrix, int given) {
  if (given > 1 && matrix.rows % given == 0) return given;
  for (int block : {3, 2})
    if (matrix.rows >= block && looks_like_nodes(matrix, block)) return block;
  return 1;
}

BlockGraph block_graph(const CsrMatrix& a, int block) {
  if (block < 1 || a.rows % block != 0)
    throw std::invalid_argument("multifrontal: " + std::to_string(a.rows) + " equations do not split into blocks of " +
                                std::to_string(block));
  if (a.rows / block > std::int64_t{0x7fffffff}) throw std::invalid_argument("multifrontal: too many nodes for 32-bit indices");
  BlockGraph g;
  g.block = block;
  g.nodes = static_cast<std::int32_t>(a.rows / block);
  g.offset.assign(static_cast<std::size_t>(g.nodes) + 1, 0);
  // Two passes over the nodes in parallel: count each one's neighbours, then write them where
  // the counts say.
  for (const bool write : {false, true}) {
    if (write) {
      for (std::int32_t node = 0; node < g.nodes; ++node) g.offset[node + 1] += g.offset[node];
      g.neighbour.resize(g.offset.back());
    }
#pragma omp parallel
    {
      std::vector<std::int32_t> seen_by(g.nodes, -1), row;
#pragma omp for schedule(dynamic, 1024)
      for (std::int32_t node = 0; node < g.nodes; ++node) {
        neighbour_blocks(a, node, block, seen_by, row);
        if (write) std::copy(row.begin(), row.end(), g.neighbour.begin() + g.offset[node]);
        else g.offset[node + 1] = static_cast<std::int64_t>(row.size());
      }
    }
  }
  return g;
}

BlockGraph renumbered(const BlockGraph& graph, std::span<const std::int32_t> new_of_old) {
  BlockGraph g;
  g.block = graph.block;
  g.nodes = graph.nodes;
  std::vector<std::int32_t> old_of_new(graph.nodes);
  for (std::int32_t v = 0; v < graph.nodes; ++v) old_of_new[new_of_old[v]] = v;
  g.offset.assign(static_cast<std::size_t>(g.nodes) + 1, 0);
  g.neighbour.resize(graph.neighbour.size());
  for (std::int32_t v = 0; v < g.nodes; ++v) {
    const auto old = graph.neighbours(old_of_new[v]);
    g.offset[v + 1] = g.offset[v] + static_cast<std::int64_t>(old.size());
    auto* out = g.neighbour.data() + g.offset[v];
    for (std::size_t k = 0; k < old.size(); ++k) out[k] = new_of_old[old[k]];
    std::sort(out, out + old.size());
  }
  return g;
}

}  // namespace fem::multifrontal

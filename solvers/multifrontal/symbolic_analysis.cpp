#include "solvers/multifrontal/symbolic_analysis.hpp"

#include <algorithm>
#include <stdexcept>

#include "solvers/multifrontal/elimination_tree.hpp"
#include "solvers/multifrontal/nested_dissection.hpp"
#include "solvers/multifrontal/node_blocks.hpp"
#include "solvers/multifrontal/supernodes.hpp"
#include "support/stopwatch.hpp"

namespace fem::multifrontal {

namespace {

// Rows of each supernode's front in nodes: its own nodes, then (ascending) the nodes below it
// that its columns of A or its children's fronts reach.
void front_rows(const BlockGraph& graph, const SupernodePartition& p, std::vector<std::int64_t>& offset,
                std::vector<std::int32_t>& rows) {
  const auto supernodes = static_cast<std::int32_t>(p.parent.size());
  std::vector<std::vector<std::int32_t>> children(supernodes);
  for (std::int32_t s = 0; s < supernodes; ++s)
    if (p.parent[s] >= 0) children[p.parent[s]].push_back(s);
  std::vector<std::int32_t> mark(graph.nodes, -1);
  offset.assign(static_cast<std::size_t>(supernodes) + 1, 0);
  for (std::int32_t s = 0; s < supernodes; ++s) {
    const std::int32_t first = p.first[s], end = p.first[s + 1];
    for (std::int32_t v = first; v < end; ++v) rows.push_back(v);
    const std::size_t below = rows.size();
    const auto add = [&](std::int32_t v) {
      if (v >= end && mark[v] != s) {
        mark[v] = s;
        rows.push_back(v);
      }
    };
    for (std::int32_t v = first; v < end; ++v)
      for (auto w : graph.neighbours(v)) add(w);
    for (auto c : children[s])
      for (auto k = offset[c]; k < offset[c + 1]; ++k) add(rows[k]);
    std::sort(rows.begin() + static_cast<std::ptrdiff_t>(below), rows.end());
    offset[s + 1] = static_cast<std::int64_t>(rows.size());
  }
}

// The stack depth each subtree needs and the update entries held at the peak (see
// SymbolicFactor::stack_entries): the stacks and the finished subtrees' root updates while the
// subtrees run, then the top supernodes in order, the stacks given back.
void plan_update_memory(SymbolicFactor& f) {
  const auto supernodes = f.supernodes();
  std::vector<std::int64_t> children_entries(supernodes, 0);
  for (std::int32_t s = 0; s < supernodes; ++s)
    if (f.parent[s] >= 0) children_entries[f.parent[s]] += f.update_entries(s);

  std::int64_t roots = 0;
  for (std::size_t t = 0; t < f.schedule.subtree_root.size(); ++t) {
    std::int64_t height = 0;
    for (std::int32_t s = f.schedule.subtree_first[t]; s < f.schedule.subtree_root[t]; ++s) {
      f.stack_entries = std::max(f.stack_entries, height + f.update_entries(s));  // allocated above the children
      height += f.update_entries(s) - children_entries[s];                        // then moved down over them
    }
    f.stack_entries = std::max(f.stack_entries, height);  // the root's children, read by the root
    roots += f.update_entries(f.schedule.subtree_root[t]);
  }
  std::int64_t live = roots, peak = f.threads * f.stack_entries + roots;
  for (std::int32_t s : f.schedule.top) {
    live += f.update_entries(s);
    peak = std::max(peak, live);
    live -= children_entries[s];
  }
  f.update_peak_entries = peak;
}

}  // namespace

double SymbolicFactor::flops_of(std::int32_t s) const {
  // The supernode's columns hold m, m - 1, ..., m - k + 1 entries.
  const std::int64_t k = columns(s), m = front(s);
  double flops = 0;
  for (std::int64_t j = 0; j < k; ++j) flops += static_cast<double>(m - j) * static_cast<double>(m - j);
  return flops;
}

std::size_t SymbolicFactor::factor_bytes(std::size_t value_bytes) const {
  return static_cast<std::size_t>(factor_entries()) * value_bytes + rows.size() * sizeof(std::int32_t) +
         parent.size() * (2 * sizeof(std::int32_t) + 2 * sizeof(std::int64_t)) +
         2 * new_of_old.size() * sizeof(std::int32_t);
}

std::size_t SymbolicFactor::workspace_bytes() const {
  return static_cast<std::size_t>(threads) * static_cast<std::size_t>(equations) * sizeof(std::int32_t);
}

std::size_t SymbolicFactor::estimate_bytes(std::size_t value_bytes) const {
  return factor_bytes(value_bytes) + static_cast<std::size_t>(update_peak_entries) * value_bytes + workspace_bytes();
}

SymbolicFactor analyse(const CsrMatrix& matrix, int block, int threads, double device_min_flops) {
  const Stopwatch t;
  const BlockGraph graph = block_graph(matrix, choose_block_size(matrix, block));
  const double seconds = t.seconds();
  SymbolicFactor f = analyse(graph, threads, device_min_flops);
  f.time_order_s += seconds;
  return f;
}

SymbolicFactor analyse(const BlockGraph& original, int threads, double device_min_flops) {
  const int b = original.block;
  if (std::int64_t{original.nodes} * b > std::int64_t{0x7fffffff})
    throw std::invalid_argument("multifrontal: too many equations for 32-bit indices");
  SymbolicFactor f;
  f.equations = std::int64_t{original.nodes} * b;
  f.block = b;
  f.threads = std::max(threads, 1);
  Stopwatch t;
  const std::vector<std::int32_t> dissected = nested_dissection(original);
  f.time_order_s = t.restart();

  // Postorder the elimination tree of the dissected graph, so that subtrees and supernodes are
  // contiguous; node_order[v] is where original node v is eliminated.
  const std::vector<std::int32_t> tree = elimination_tree(renumbered(original, dissected));
  const std::vector<std::int32_t> post = postorder(tree);
  std::vector<std::int32_t> node_order(original.nodes), parent(original.nodes);
  for (std::int32_t v = 0; v < original.nodes; ++v) {
    node_order[v] = post[dissected[v]];
    parent[post[v]] = tree[v] < 0 ? -1 : post[tree[v]];
  }
  const BlockGraph graph = renumbered(original, node_order);
  const SupernodePartition partition = find_supernodes(parent, column_counts(graph, parent), b);
  std::vector<std::int64_t> node_row_offset;
  std::vector<std::int32_t> node_rows;
  front_rows(graph, partition, node_row_offset, node_rows);

  // Expand nodes to equations: node v's equation c becomes v * block + c.
  f.new_of_old.resize(f.equations);
  f.old_of_new.resize(f.equations);
  for (std::int32_t v = 0; v < original.nodes; ++v)
    for (int c = 0; c < b; ++c) {
      f.new_of_old[v * b + c] = node_order[v] * b + c;
      f.old_of_new[node_order[v] * b + c] = v * b + c;
    }
  const std::int32_t supernodes = static_cast<std::int32_t>(partition.parent.size());
  f.parent = partition.parent;
  f.first.resize(partition.first.size());
  for (std::size_t s = 0; s < partition.first.size(); ++s) f.first[s] = partition.first[s] * b;
  f.row_offset.resize(node_row_offset.size());
  for (std::size_t s = 0; s < node_row_offset.size(); ++s) f.row_offset[s] = node_row_offset[s] * b;
  f.rows.reserve(node_rows.size() * b);
  for (auto v : node_rows)
    for (int c = 0; c < b; ++c) f.rows.push_back(v * b + c);

  f.panel_offset.assign(static_cast<std::size_t>(supernodes) + 1, 0);
  std::vector<double> work(supernodes);
  for (std::int32_t s = 0; s < supernodes; ++s) {
    const std::int64_t k = f.columns(s), m = f.front(s);
    f.panel_offset[s + 1] = f.panel_offset[s] + k * m;
    f.front_max = std::max(f.front_max, m);
    work[s] = f.flops_of(s);
    f.flops += work[s];
  }
  f.on_device.assign(supernodes, 0);
  for (std::int32_t s = 0; s < supernodes; ++s) {  // postorder: a child's mark reaches its parent first
    if (work[s] >= device_min_flops) f.on_device[s] = 1;
    if (!f.on_device[s]) continue;
    f.device_flops += work[s];
    if (f.parent[s] >= 0) f.on_device[f.parent[s]] = 1;
  }
  f.schedule = schedule_tree(f.parent, work, f.threads, f.on_device);
  plan_update_memory(f);
  f.time_symbolic_s = t.seconds();
  return f;
}

}  // namespace fem::multifrontal

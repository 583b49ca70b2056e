#include "solvers/iterative/amg/aggregation.hpp"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fem::amg {
namespace {

double frobenius(const double* block, std::int64_t size) {
  double s = 0;
  for (std::int64_t k = 0; k < size; ++k) s += block[k] * block[k];
  return std::sqrt(s);
}

// The strong connections of each node, with their strengths: the graph the passes below walk,
// compact (4 bytes a neighbour for the serial passes, against a whole row of blocks), filled by
// the threads that use it.
struct StrongGraph {
  std::vector<std::int64_t> row_ptr;
  std::vector<std::int32_t, kernels::UninitializedAllocator<std::int32_t>> neighbour;
  std::vector<float, kernels::UninitializedAllocator<float>> strength;
};

StrongGraph strong_graph(const BlockSparse& a, double threshold) {
  const std::int64_t bs = a.block_size();
  const bool parallel = a.block_rows > 20000;
  std::vector<double> diag_norm(static_cast<std::size_t>(a.block_rows), 0.0);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) diag_norm[i] = frobenius(a.block(k), bs);
  // Block k of row i, 0 where the connection is weak (or to itself): computed twice, to count
  // and to fill, rather than stored for every block.
  const auto strength = [&](std::int64_t i, std::int64_t k) {
    const std::int32_t j = a.col[k];
    if (j == i) return 0.0;
    const double norm = frobenius(a.block(k), bs);
    return norm > 0 && norm >= threshold * std::sqrt(diag_norm[i] * diag_norm[j]) ? norm : 0.0;
  };
  StrongGraph g;
  g.row_ptr.assign(static_cast<std::size_t>(a.block_rows) + 1, 0);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) g.row_ptr[i + 1] += strength(i, k) > 0 ? 1 : 0;
  std::partial_sum(g.row_ptr.begin(), g.row_ptr.end(), g.row_ptr.begin());
  g.neighbour.resize(static_cast<std::size_t>(g.row_ptr.back()));
  g.strength.resize(g.neighbour.size());
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    auto to = g.row_ptr[i];
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (const double sk = strength(i, k); sk > 0) g.neighbour[to] = a.col[k], g.strength[to++] = static_cast<float>(sk);
  }
  return g;
}

}  // namespace

Aggregates aggregate(const BlockSparse& a, double threshold) {
  if (a.row_block != a.col_block || a.block_rows != a.block_cols)
    throw std::invalid_argument("amg aggregate: the level matrix must be square in square blocks");
  const StrongGraph g = strong_graph(a, threshold);
  Aggregates agg;
  agg.of_node.assign(static_cast<std::size_t>(a.block_rows), -1);
  auto& of = agg.of_node;
  const auto strong_neighbours = [&](std::int64_t i, auto&& visit) {
    for (auto k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) visit(g.neighbour[k], g.strength[k]);
  };
  // (1) seeds whose whole strong neighbourhood is still free, one node after another (seeding on
  // ranges of nodes at once, each range in order, cost 2-4 of 15 iterations on a 70^3 box: the
  // sweep in the matrix's banded order makes the better aggregates)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    bool free = true, any = false;
    strong_neighbours(i, [&](std::int32_t j, double) { any = true, free = free && of[j] < 0; });
    if (!any || !free) continue;
    const auto id = static_cast<std::int32_t>(agg.count++);
    of[i] = id;
    strong_neighbours(i, [&](std::int32_t j, double) { of[j] = id; });
  }
  // (2) leftovers join their strongest neighbour's aggregate from (1)
  std::vector<std::int32_t> joined(of);
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    double best = 0;
    strong_neighbours(i, [&](std::int32_t j, double sij) {
      if (of[j] >= 0 && sij > best) best = sij, joined[i] = of[j];
    });
  }
  of.swap(joined);
  // (3) what is left (but not isolated) groups with its free strong neighbours
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    bool any = false;
    strong_neighbours(i, [&](std::int32_t, double) { any = true; });
    if (!any) continue;
    const auto id = static_cast<std::int32_t>(agg.count++);
    of[i] = id;
    strong_neighbours(i, [&](std::int32_t j, double) {
      if (of[j] < 0) of[j] = id;
    });
  }
  return agg;
}

}  // namespace fem::amg

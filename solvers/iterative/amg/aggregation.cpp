#include "solvers/iterative/amg/aggregation.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace fem::amg {
namespace {

// The strong connections: at each block's position in A, its column where the block is a strong
// connection, -1 elsewhere (the diagonal, weak or zero blocks). One pass over A (or its blocks'
// norms) fills it, first touched by the threads that fill it; the serial passes below walk A's
// rows in it.
using StrongGraph = std::vector<std::int32_t, kernels::UninitializedAllocator<std::int32_t>>;

template <class Norm2>
StrongGraph strong_graph(const BlockSparse& a, double threshold, Norm2 norm2_of) {
  const bool parallel = a.block_rows > 20000;
  std::vector<double> diag_norm(static_cast<std::size_t>(a.block_rows), 0.0);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) diag_norm[i] = std::sqrt(norm2_of(k));
  StrongGraph g(a.col.size());
  const double threshold2 = threshold * threshold;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int32_t j = a.col[k];
      // ||A_ij|| >= threshold sqrt(||A_ii|| ||A_jj||) > 0, squared
      const double norm2 = j == i ? 0.0 : norm2_of(k);
      g[k] = norm2 > 0 && norm2 >= threshold2 * diag_norm[i] * diag_norm[j] ? j : -1;
    }
  return g;
}

// The same from the blocks' strengths found elsewhere (negative: not strong).
StrongGraph strong_graph(const BlockSparse& a, std::span<const float> strength) {
  StrongGraph g(a.col.size());
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) g[k] = strength[k] >= 0 ? a.col[k] : -1;
  return g;
}

}  // namespace

Aggregates aggregate(const BlockSparse& a, double threshold, std::span<const double> squared_norms,
                     std::span<const float> strength) {
  if (a.row_block != a.col_block || a.block_rows != a.block_cols)
    throw std::invalid_argument("amg aggregate: the level matrix must be square in square blocks");
  if (!squared_norms.empty() && squared_norms.size() != a.col.size())
    throw std::invalid_argument("amg aggregate: " + std::to_string(squared_norms.size()) + " block norms for " +
                                std::to_string(a.col.size()) + " blocks");
  if (!strength.empty() && strength.size() != a.col.size())
    throw std::invalid_argument("amg aggregate: " + std::to_string(strength.size()) + " block strengths for " +
                                std::to_string(a.col.size()) + " blocks");
  const std::int64_t bs = a.block_size();
  const auto norm2_of = [&](std::int64_t k) {
    return squared_norms.empty() ? squared_norm(a.block(k), bs) : squared_norms[k];
  };
  // ||A_ij|| of a strong block, compared in single precision
  const auto strength_of = [&](std::int64_t k) {
    return strength.empty() ? static_cast<float>(std::sqrt(norm2_of(k))) : strength[k];
  };
  const StrongGraph g = strength.empty() ? strong_graph(a, threshold, norm2_of) : strong_graph(a, strength);
  Aggregates agg;
  agg.of_node.assign(static_cast<std::size_t>(a.block_rows), -1);
  auto& of = agg.of_node;
  // visit(j, k) for each strong neighbour j of node i, k its block in A
  const auto strong_neighbours = [&](std::int64_t i, auto&& visit) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (g[k] >= 0) visit(g[k], k);
  };
  // (1) seeds whose whole strong neighbourhood is still free, one node after another (seeding on
  // ranges of nodes at once, each range in order, cost 2-4 of 15 iterations on a 70^3 box: the
  // sweep in the matrix's banded order makes the better aggregates)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    bool free = true, any = false;
    strong_neighbours(i, [&](std::int32_t j, std::int64_t) { any = true, free = free && of[j] < 0; });
    if (!any || !free) continue;
    const auto id = static_cast<std::int32_t>(agg.count++);
    of[i] = id;
    strong_neighbours(i, [&](std::int32_t j, std::int64_t) { of[j] = id; });
  }
  // (2) leftovers join their strongest neighbour's aggregate from (1)
  std::vector<std::int32_t> joined(of);
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    double best = 0;
    strong_neighbours(i, [&](std::int32_t j, std::int64_t k) {
      if (of[j] < 0) return;
      const double sij = strength_of(k);
      if (sij > best) best = sij, joined[i] = of[j];
    });
  }
  of.swap(joined);
  // (3) what is left (but not isolated) groups with its free strong neighbours
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    if (of[i] >= 0) continue;
    bool any = false;
    strong_neighbours(i, [&](std::int32_t, std::int64_t) { any = true; });
    if (!any) continue;
    const auto id = static_cast<std::int32_t>(agg.count++);
    of[i] = id;
    strong_neighbours(i, [&](std::int32_t j, std::int64_t) {
      if (of[j] < 0) of[j] = id;
    });
  }
  return agg;
}

}  // namespace fem::amg

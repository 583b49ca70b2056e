#include "solvers/iterative/amg/aggregation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace fem::amg {
namespace {

// The strong connections: bit k % 32 of word k / 32 is set where block k of A is one (not the
// diagonal, not weak, not zero), as kernels::LevelValues::strong. A thread makes whole words, so
// no two write one; the serial passes below read A's rows in it (a bit a block, not a column).
using StrongBlocks = std::vector<std::uint32_t, kernels::UninitializedAllocator<std::uint32_t>>;

bool is_strong(std::span<const std::uint32_t> strong, std::int64_t k) { return (strong[k >> 5] >> (k & 31)) & 1u; }

template <class Norm2>
StrongBlocks strong_blocks(const BlockSparse& a, double threshold, Norm2 norm2_of) {
  const bool parallel = a.block_rows > 20000;
  std::vector<double> diag_norm(static_cast<std::size_t>(a.block_rows), 0.0);
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) diag_norm[i] = std::sqrt(norm2_of(k));
  const auto blocks = static_cast<std::int64_t>(a.col.size());
  StrongBlocks strong(static_cast<std::size_t>((blocks + 31) / 32));
  const double threshold2 = threshold * threshold;
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t w = 0; w < static_cast<std::int64_t>(strong.size()); ++w) {
    const std::int64_t first = 32 * w, last = std::min(first + 32, blocks);
    // the row of block `first`, then of each next one
    auto i = static_cast<std::int64_t>(std::upper_bound(a.row_ptr.begin(), a.row_ptr.end(), first) - a.row_ptr.begin()) - 1;
    std::uint32_t bits = 0;
    for (std::int64_t k = first; k < last; ++k) {
      while (a.row_ptr[i + 1] <= k) ++i;
      const std::int32_t j = a.col[k];
      // ||A_ij|| >= threshold sqrt(||A_ii|| ||A_jj||) > 0, squared
      const double norm2 = j == i ? 0.0 : norm2_of(k);
      if (norm2 > 0 && norm2 >= threshold2 * diag_norm[i] * diag_norm[j]) bits |= 1u << (k - first);
    }
    strong[w] = bits;
  }
  return strong;
}

}  // namespace

Aggregates aggregate(const BlockSparse& a, double threshold, std::span<const double> squared_norms,
                     const kernels::LevelValues* found) {
  if (a.row_block != a.col_block || a.block_rows != a.block_cols)
    throw std::invalid_argument("amg aggregate: the level matrix must be square in square blocks");
  if (!squared_norms.empty() && squared_norms.size() != a.col.size())
    throw std::invalid_argument("amg aggregate: " + std::to_string(squared_norms.size()) + " block norms for " +
                                std::to_string(a.col.size()) + " blocks");
  const std::size_t words = (a.col.size() + 31) / 32;
  if (found && (found->strong.size() != words || !found->join_leftovers))
    throw std::invalid_argument("amg aggregate: " + std::to_string(found->strong.size()) + " words of strong blocks for " +
                                std::to_string(a.col.size()) + " blocks, or no join of the leftovers");
  const std::int64_t bs = a.block_size();
  const auto norm2_of = [&](std::int64_t k) {
    return squared_norms.empty() ? squared_norm(a.block(k), bs) : squared_norms[k];
  };
  StrongBlocks tested;
  if (!found) tested = strong_blocks(a, threshold, norm2_of);
  const std::span<const std::uint32_t> strong = found ? std::span<const std::uint32_t>(found->strong) : tested;
  Aggregates agg;
  agg.of_node.assign(static_cast<std::size_t>(a.block_rows), -1);
  auto& of = agg.of_node;
  // visit(j, k) for each strong neighbour j of node i, k its block in A
  const auto strong_neighbours = [&](std::int64_t i, auto&& visit) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (is_strong(strong, k)) visit(a.col[k], k);
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
  // (2) leftovers join their strongest neighbour's aggregate from (1): ||A_ij|| compared in single
  // precision, as a device compares them
  std::vector<std::int32_t> joined(of);
  if (found) {
    found->join_leftovers(of, joined);
  } else {
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
    for (std::int64_t i = 0; i < a.block_rows; ++i) {
      if (of[i] >= 0) continue;
      double best = 0;
      strong_neighbours(i, [&](std::int32_t j, std::int64_t k) {
        if (of[j] < 0) return;
        const double sij = static_cast<float>(std::sqrt(norm2_of(k)));
        if (sij > best) best = sij, joined[i] = of[j];
      });
    }
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

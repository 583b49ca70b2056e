#include "solvers/iterative/amg/aggregation.hpp"

#include <algorithm>
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

// The strength of each stored off-diagonal block, 0 where the connection is weak.
std::vector<double> strength(const BlockSparse& a, double threshold) {
  const std::int64_t bs = a.block_size();
  std::vector<double> diag_norm(static_cast<std::size_t>(a.block_rows), 0.0);
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i) diag_norm[i] = frobenius(a.block(k), bs);
  std::vector<double> s(a.col.size(), 0.0);
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int32_t j = a.col[k];
      if (j == i) continue;
      const double norm = frobenius(a.block(k), bs);
      if (norm > 0 && norm >= threshold * std::sqrt(diag_norm[i] * diag_norm[j])) s[k] = norm;
    }
  return s;
}

// The ranges of consecutive nodes that seed aggregates at once (the first pass).
constexpr std::int64_t kSeedRange = 65536;

}  // namespace

Aggregates aggregate(const BlockSparse& a, double threshold) {
  if (a.row_block != a.col_block || a.block_rows != a.block_cols)
    throw std::invalid_argument("amg aggregate: the level matrix must be square in square blocks");
  const std::vector<double> s = strength(a, threshold);
  Aggregates agg;
  agg.of_node.assign(static_cast<std::size_t>(a.block_rows), -1);
  auto& of = agg.of_node;
  const auto strong_neighbours = [&](std::int64_t i, auto&& visit) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (s[k] > 0) visit(a.col[k], s[k]);
  };
  // (1) seeds whose whole strong neighbourhood is still free: first on ranges of consecutive
  // nodes at once, each seeding only where that neighbourhood lies in its range, then, one node
  // after another, where it crossed a range's end. The ranges are fixed, so are the aggregates,
  // whatever the threads.
  const std::int64_t ranges = (a.block_rows + kSeedRange - 1) / kSeedRange;
  std::vector<std::int64_t> seeded(static_cast<std::size_t>(ranges) + 1, 0);
  const auto seed = [&](std::int64_t i, std::int64_t first, std::int64_t last, std::int32_t id) {
    if (of[i] >= 0) return false;
    bool free = true, any = false;
    strong_neighbours(i, [&](std::int32_t j, double) { any = true, free = free && of[j] < 0 && j >= first && j < last; });
    if (!any || !free) return false;
    of[i] = id;
    strong_neighbours(i, [&](std::int32_t j, double) { of[j] = id; });
    return true;
  };
#pragma omp parallel for schedule(dynamic) if (ranges > 1)
  for (std::int64_t range = 0; range < ranges; ++range) {
    const std::int64_t first = range * kSeedRange, last = std::min(first + kSeedRange, a.block_rows);
    std::int32_t count = 0;  // aggregates numbered within the range first
    for (std::int64_t i = first; i < last; ++i) count += seed(i, first, last, count) ? 1 : 0;
    seeded[range + 1] = count;
  }
  std::partial_sum(seeded.begin(), seeded.end(), seeded.begin());
#pragma omp parallel for schedule(static) if (ranges > 1)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    if (of[i] >= 0) of[i] += static_cast<std::int32_t>(seeded[i / kSeedRange]);
  agg.count = seeded.back();
  if (ranges > 1)
    for (std::int64_t i = 0; i < a.block_rows; ++i)
      if (seed(i, 0, a.block_rows, static_cast<std::int32_t>(agg.count))) ++agg.count;
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

#include "kernels/shared/spmv_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace fem::kernels {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();
constexpr double kValue = 8, kIndex = 4;   // bytes of a double and of a 32-bit column index
constexpr double kBlockValues = 9 * kValue;  // a 3x3 block
// A lane that reads more than kPacedValues values of one row in sequence slows down as their
// number to the power kPaceExponent (fitted to the OpenCL (WG, R) sweep at 77 per row of
// bench/results/2026-11-23-spmv-pcg.md).
constexpr double kPacedValues = 10, kPaceExponent = 0.45;

// HYB's ELL width as to_hyb chooses it (Bell & Garland): the largest that a third of the rows fill.
std::int64_t hyb_width(const RowStats& s) {
  std::int64_t width = 0, at_least = s.rows;  // rows of length >= width
  while (width + 1 < static_cast<std::int64_t>(s.rows_of_length.size())) {
    at_least -= s.rows_of_length[width];
    if (3 * at_least < s.rows) break;
    ++width;
  }
  return width;
}

// Entries beyond `width` in their rows: HYB's COO part.
std::int64_t entries_beyond(const RowStats& s, std::int64_t width) {
  std::int64_t beyond = 0;
  for (std::size_t length = 0; length < s.rows_of_length.size(); ++length)
    beyond += std::max<std::int64_t>(0, static_cast<std::int64_t>(length) - width) * s.rows_of_length[length];
  return beyond;
}

}  // namespace

double spmv_bytes(const RowStats& s, SpmvLayout layout, const PaddingLimit& limit) {
  if (s.rows == 0 || s.nnz == 0) return 0;
  const double rows = static_cast<double>(s.rows), nnz = static_cast<double>(s.nnz);
  const double block_rows = static_cast<double>(s.rows / 3);
  const double vectors = 2 * kValue * rows;  // x read once, y written once
  // A padded layout storing `entries` of `bytes` each is refused as the conversions refuse it.
  auto refused = [&](double entries, double bytes) {
    return entries > limit.max_fill * nnz || entries * bytes > static_cast<double>(limit.max_bytes);
  };
  switch (layout) {
    case SpmvLayout::Csr:
      return (kValue + kIndex) * nnz + kValue * (rows + 1) + vectors;
    case SpmvLayout::Ell:
      if (refused(static_cast<double>(s.max) * rows, kValue + kIndex)) return kInfinite;
      return (kValue + kIndex) * static_cast<double>(s.slice_slots) + vectors;
    case SpmvLayout::Sell:
      if (refused(static_cast<double>(s.slice_slots), kValue + kIndex)) return kInfinite;
      return (kValue + kIndex) * static_cast<double>(s.slice_slots) + kValue * rows / 32 + vectors;
    case SpmvLayout::Hyb: {
      const std::int64_t width = hyb_width(s);
      const double ell = static_cast<double>(width) * rows, coo = static_cast<double>(entries_beyond(s, width));
      if (refused(ell, kValue + kIndex)) return kInfinite;
      // COO triples are read whole and added to y atomically: count them twice.
      return (kValue + kIndex) * ell + 2 * (kValue + 2 * kIndex) * coo + vectors;
    }
    case SpmvLayout::Bcsr:
      if (!s.block3) return kInfinite;
      return (kBlockValues + kIndex) * nnz / 9 + kValue * (block_rows + 1) + vectors;
    case SpmvLayout::Bell:
      if (!s.block3 || refused(9 * static_cast<double>(s.block_max) * block_rows, kValue)) return kInfinite;
      return (kBlockValues + kIndex) * static_cast<double>(s.block_slice_slots) + vectors;
    case SpmvLayout::Dia:
      if (refused(static_cast<double>(s.diagonals) * rows, kValue)) return kInfinite;
      return kValue * static_cast<double>(s.diagonals) * rows + vectors;
    case SpmvLayout::Cds:
      if (!s.block3 || refused(9 * static_cast<double>(s.block_diagonals) * block_rows, kValue)) return kInfinite;
      return kBlockValues * static_cast<double>(s.block_diagonals) * block_rows + vectors;
  }
  return kInfinite;
}

double team_use(const RowStats& s, SpmvLayout layout, int lanes) {
  if (layout != SpmvLayout::Csr && layout != SpmvLayout::Bcsr) return 1.0;
  const bool blocks = layout == SpmvLayout::Bcsr;
  const auto& rows_of_length = blocks ? s.block_rows_of_length : s.rows_of_length;
  const double t = std::max(1, lanes), values = blocks ? 9 : 1;  // values per entry
  double loaded = 0, cost = 0;  // lane steps that load an entry; all lane steps, weighted by their pace
  for (std::size_t length = 0; length < rows_of_length.size(); ++length) {
    const double count = static_cast<double>(rows_of_length[length]), l = static_cast<double>(length);
    const double steps = std::max(1.0, std::ceil(l / t));
    loaded += l * count;
    cost += steps * t * count * std::max(1.0, std::pow(values * steps / kPacedValues, kPaceExponent));
  }
  return cost > 0 ? std::max(loaded, 1.0) / cost : 1.0;
}

double spmv_threads(const RowStats& s, SpmvLayout layout, int lanes) {
  const double rows = static_cast<double>(s.rows), block_rows = static_cast<double>(s.rows / 3);
  switch (layout) {
    case SpmvLayout::Csr: return rows * std::max(1, lanes);
    case SpmvLayout::Bcsr: return block_rows * std::max(1, lanes);
    case SpmvLayout::Bell:
    case SpmvLayout::Cds: return block_rows;
    default: return rows;
  }
}

std::vector<ModelEstimate> rank_by_model(const RowStats& s, const std::vector<SpmvCandidate>& candidates,
                                         double bandwidth, double saturating_threads) {
  std::vector<ModelEstimate> ranked;
  for (const auto& c : candidates) {
    const double bytes = spmv_bytes(s, c.layout);
    const double threads = spmv_threads(s, c.layout, c.lanes);
    // Below saturation a kernel keeps more loads in flight per thread: the share falls as a square root.
    const double busy = saturating_threads > 0 ? std::sqrt(std::min(1.0, threads / saturating_threads)) : 1.0;
    const double rate = bandwidth * c.efficiency * team_use(s, c.layout, c.lanes) * busy;
    ranked.push_back({c, bytes, std::isfinite(bytes) && rate > 0 ? bytes / rate : kInfinite});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  return ranked;
}

}  // namespace fem::kernels

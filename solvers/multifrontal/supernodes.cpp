#include "solvers/multifrontal/supernodes.hpp"

namespace fem::multifrontal {

namespace {

// Entries of a supernode of `cols` columns and `rows` rows (its diagonal block a triangle).
double trapezoid(double cols, double rows) { return cols * rows - cols * (cols - 1) / 2; }

// CHOLMOD's defaults (cholmod_defaults: nrelax 4, 16, 48; zrelax 0.8, 0.1, 0.05): small
// supernodes merge freely, larger ones only while their share of explicit zeros is small.
bool worth_merging(double cols, double zero_share) {
  return cols <= 4 || (cols <= 16 && zero_share < 0.8) || (cols <= 48 && zero_share < 0.1) || zero_share < 0.05;
}

}  // namespace

SupernodePartition find_supernodes(const std::vector<std::int32_t>& parent, const std::vector<std::int64_t>& count,
                                   int block) {
  const auto n = static_cast<std::int32_t>(parent.size());
  if (n == 0) return {{0}, {}};
  std::vector<std::int32_t> children(n, 0);
  for (std::int32_t j = 0; j < n; ++j)
    if (parent[j] >= 0) ++children[parent[j]];

  // Fundamental supernodes: j + 1 continues j's when it is j's parent, has no other child,
  // and its column is j's without j's diagonal.
  std::vector<std::int32_t> fundamental{0};
  for (std::int32_t j = 1; j < n; ++j)
    if (!(parent[j - 1] == j && children[j] == 1 && count[j - 1] == count[j] + 1)) fundamental.push_back(j);
  fundamental.push_back(n);

  // Relaxed amalgamation, in postorder: a supernode absorbs the merged supernode just before it
  // when that one is its child (then the merged columns stay contiguous).
  SupernodePartition p;
  std::vector<double> cols, rows, zeros;   // of each merged supernode, in equations
  std::vector<std::int32_t> last;          // its last column
  const double b = block;
  for (std::size_t f = 0; f + 1 < fundamental.size(); ++f) {
    const std::int32_t first = fundamental[f], end = fundamental[f + 1];
    const double c = b * (end - first), r = b * static_cast<double>(count[first]);
    if (!p.first.empty() && parent[last.back()] >= first && parent[last.back()] < end) {
      const double merged_cols = cols.back() + c, merged_rows = cols.back() + r;
      const double merged_zeros = zeros.back() + trapezoid(merged_cols, merged_rows) -
                                  trapezoid(cols.back(), rows.back()) - trapezoid(c, r);
      if (worth_merging(merged_cols, merged_zeros / trapezoid(merged_cols, merged_rows))) {
        cols.back() = merged_cols, rows.back() = merged_rows, zeros.back() = merged_zeros;
        last.back() = end - 1;
        continue;
      }
    }
    p.first.push_back(first);
    cols.push_back(c), rows.push_back(r), zeros.push_back(0);
    last.push_back(end - 1);
  }
  p.first.push_back(n);

  const auto supernodes = static_cast<std::int32_t>(last.size());
  std::vector<std::int32_t> owner(n);
  for (std::int32_t s = 0; s < supernodes; ++s)
    for (std::int32_t j = p.first[s]; j < p.first[s + 1]; ++j) owner[j] = s;
  p.parent.resize(supernodes);
  for (std::int32_t s = 0; s < supernodes; ++s) p.parent[s] = parent[last[s]] < 0 ? -1 : owner[parent[last[s]]];
  return p;
}

}  // namespace fem::multifrontal

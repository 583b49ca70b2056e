#include "kernels/cuda/lower_pieces.hpp"

#include <algorithm>

namespace fem::kernels::cuda {

namespace {

// Halves keep to multiples of this many rows where they can (cuBLAS's tiles).
constexpr std::int64_t kAlignment = 64;

void halve(std::int64_t first, std::int64_t n, std::int64_t leaf, std::vector<LowerPiece>& pieces) {
  if (n <= 0) return;
  if (leaf <= 0 || n <= leaf) {
    pieces.push_back({first, first, n, n});
    return;
  }
  std::int64_t top = n / 2 / kAlignment * kAlignment;
  if (top == 0) top = n / 2;
  pieces.push_back({first + top, first, n - top, top});
  halve(first, top, leaf, pieces);
  halve(first + top, n - top, leaf, pieces);
}

double flops(const LowerPiece& p) {
  return p.on_diagonal() ? static_cast<double>(p.rows) * static_cast<double>(p.rows + 1)
                         : 2.0 * static_cast<double>(p.rows) * static_cast<double>(p.cols);
}

}  // namespace

std::vector<LowerPiece> lower_pieces(std::int64_t n, const LowerUpdatePlan& plan) {
  std::vector<LowerPiece> pieces;
  halve(0, n, plan.leaf, pieces);
  std::stable_sort(pieces.begin(), pieces.end(), [](const LowerPiece& a, const LowerPiece& b) { return flops(a) > flops(b); });
  std::vector<double> load(static_cast<std::size_t>(std::max(plan.streams, 1)), 0.0);
  for (auto& p : pieces) {
    p.stream = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[static_cast<std::size_t>(p.stream)] += flops(p);
  }
  return pieces;
}

}  // namespace fem::kernels::cuda

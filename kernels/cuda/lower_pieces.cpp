#include "kernels/cuda/lower_pieces.hpp"

#include <algorithm>

namespace fem::kernels::cuda {

namespace {

// Halves keep to multiples of this many rows where they can (cuBLAS's tiles).
constexpr std::int64_t kAlignment = 64;

// `quantum`: the halves fall on its multiples where they can.
void halve(std::int64_t first, std::int64_t n, std::int64_t leaf, std::int64_t quantum, std::vector<LowerPiece>& pieces) {
  if (n <= 0) return;
  if (leaf <= 0 || n <= leaf) {
    pieces.push_back({first, first, n, n});
    return;
  }
  std::int64_t top = (n + quantum) / 2 / quantum * quantum;  // the larger half on top when n is an odd multiple
  if (top == 0 || top >= n) top = n / 2;
  pieces.push_back({first + top, first, n - top, top});
  halve(first, top, leaf, quantum, pieces);
  halve(first + top, n - top, leaf, quantum, pieces);
}

double flops(const LowerPiece& p, bool squares) {
  return p.on_diagonal() && !squares ? static_cast<double>(p.rows) * static_cast<double>(p.rows + 1)
                                     : 2.0 * static_cast<double>(p.rows) * static_cast<double>(p.cols);
}

}  // namespace

std::vector<LowerPiece> lower_pieces(std::int64_t n, const LowerUpdatePlan& plan) {
  const bool squares = plan.leaves_by_gemm && plan.leaf > 0;
  std::vector<LowerPiece> pieces;
  halve(0, n, plan.leaf, squares ? plan.leaf : kAlignment, pieces);
  // Units of work for the streams: each piece, or all the leaves together when one GEMM does them.
  std::vector<std::vector<LowerPiece>> units;
  std::vector<LowerPiece> leaves;
  for (const auto& p : pieces) {
    if (squares && p.on_diagonal()) leaves.push_back(p);
    else units.push_back({p});
  }
  if (!leaves.empty()) units.push_back(leaves);
  const auto work = [&](const std::vector<LowerPiece>& unit) {
    double f = 0;
    for (const auto& p : unit) f += flops(p, squares);
    return f;
  };
  std::stable_sort(units.begin(), units.end(), [&](const auto& a, const auto& b) { return work(a) > work(b); });
  std::vector<double> load(static_cast<std::size_t>(std::max(plan.streams, 1)), 0.0);
  std::vector<LowerPiece> queued;
  for (auto& unit : units) {
    const int stream = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
    load[static_cast<std::size_t>(stream)] += work(unit);
    for (auto& p : unit) {
      p.stream = stream;
      queued.push_back(p);
    }
  }
  return queued;
}

}  // namespace fem::kernels::cuda

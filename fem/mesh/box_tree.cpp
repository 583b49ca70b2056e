#include "fem/mesh/box_tree.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fem {
namespace {

// Boxes per leaf: fewer makes the tree deeper, more makes each leaf test more boxes.
constexpr std::uint32_t kLeafSize = 4;

double centre(const Box& b, int axis) { return 0.5 * (b.lo[static_cast<std::size_t>(axis)] + b.hi[static_cast<std::size_t>(axis)]); }

}  // namespace

BoxTree::BoxTree(std::vector<Box> boxes) : boxes_(std::move(boxes)) {
  if (boxes_.size() >= UINT32_MAX / 2) throw std::length_error("BoxTree: too many boxes");
  order_.resize(boxes_.size());
  std::iota(order_.begin(), order_.end(), 0u);
  nodes_.reserve(2 * boxes_.size() / kLeafSize + 2);
  if (boxes_.empty()) return;
  build(0, static_cast<std::uint32_t>(boxes_.size()));
  // The leaves' boxes side by side in memory, as the queries read them.
  std::vector<Box> in_leaf_order(boxes_.size());
  for (std::size_t k = 0; k < order_.size(); ++k) in_leaf_order[k] = boxes_[order_[k]];
  boxes_ = std::move(in_leaf_order);
}

// Splits order_[begin, end) at the median of the box centres along the widest axis of the
// centres, so each level halves the boxes and the depth is log2(n / kLeafSize).
std::uint32_t BoxTree::build(std::uint32_t begin, std::uint32_t end) {
  const auto index = static_cast<std::uint32_t>(nodes_.size());
  nodes_.emplace_back();
  Box bounds{{HUGE_VAL, HUGE_VAL, HUGE_VAL}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}};
  Box centres = bounds;
  for (std::uint32_t k = begin; k < end; ++k) {
    const Box& b = boxes_[order_[k]];
    for (std::size_t a = 0; a < 3; ++a) {
      bounds.lo[a] = std::min(bounds.lo[a], b.lo[a]);
      bounds.hi[a] = std::max(bounds.hi[a], b.hi[a]);
      centres.lo[a] = std::min(centres.lo[a], centre(b, static_cast<int>(a)));
      centres.hi[a] = std::max(centres.hi[a], centre(b, static_cast<int>(a)));
    }
  }
  nodes_[index].box = bounds;
  if (end - begin <= kLeafSize) {
    nodes_[index].first = begin;
    nodes_[index].count = end - begin;
    return index;
  }
  int axis = 0;
  for (int a = 1; a < 3; ++a)
    if (centres.hi[static_cast<std::size_t>(a)] - centres.lo[static_cast<std::size_t>(a)] >
        centres.hi[static_cast<std::size_t>(axis)] - centres.lo[static_cast<std::size_t>(axis)])
      axis = a;
  const std::uint32_t middle = begin + (end - begin) / 2;
  std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end,
                   [&](std::uint32_t a, std::uint32_t b) { return centre(boxes_[a], axis) < centre(boxes_[b], axis); });
  build(begin, middle);
  const std::uint32_t right = build(middle, end);
  nodes_[index].first = right;
  return index;
}

}  // namespace fem

#pragma once
// A bounding-volume hierarchy of axis-aligned boxes (one per cell of a mesh): which boxes hold
// a point, in O(log n + hits) per query after an O(n log n) build, however graded the mesh
// (a uniform grid would crowd the small cells of a refined region into few buckets).
#include <array>
#include <cstdint>
#include <vector>

namespace fem {

struct Box {
  std::array<double, 3> lo{}, hi{};
  bool holds(const double* p) const {
    return lo[0] <= p[0] && p[0] <= hi[0] && lo[1] <= p[1] && p[1] <= hi[1] && lo[2] <= p[2] && p[2] <= hi[2];
  }
};

class BoxTree {
 public:
  explicit BoxTree(std::vector<Box> boxes);

  // The boxes leaf by leaf: queries from points of consecutive boxes in this order take nearly
  // the same path down the tree, which keeps its nodes in cache.
  const std::vector<std::uint32_t>& leaf_order() const { return order_; }

  // Calls visit(i) for each box i that holds p (its boundary included); visit returns false to stop.
  template <class Visit>
  void for_each_holding(const double* p, Visit&& visit) const {
    if (nodes_.empty()) return;
    std::uint32_t stack[64];  // the build halves each node's boxes: depth stays below 64
    int top = 0;
    if (nodes_[0].box.holds(p)) stack[top++] = 0;
    while (top > 0) {
      const std::uint32_t index = stack[--top];
      const Node& node = nodes_[index];
      if (node.count > 0) {
        for (std::uint32_t k = node.first; k < node.first + node.count; ++k)
          if (boxes_[k].holds(p) && !visit(static_cast<std::size_t>(order_[k]))) return;
        continue;
      }
      // Children are pushed only where they hold p: the left child follows its parent, the right is at `first`.
      if (nodes_[node.first].box.holds(p)) stack[top++] = node.first;
      if (nodes_[index + 1].box.holds(p)) stack[top++] = index + 1;
    }
  }

 private:
  // A leaf holds order_[first .. first+count); an inner node (count 0) has its left child right
  // after it and its right child at `first`.
  struct Node {
    Box box;
    std::uint32_t first = 0, count = 0;
  };
  std::uint32_t build(std::uint32_t begin, std::uint32_t end);

  std::vector<Box> boxes_;             // in the order of the leaves once built: box k is box order_[k] given
  std::vector<std::uint32_t> order_;
  std::vector<Node> nodes_;
};

}  // namespace fem

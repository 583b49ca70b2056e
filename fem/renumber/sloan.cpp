#include "fem/renumber/sloan.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "fem/renumber/level_structure.hpp"

namespace fem::renumber {
namespace {

enum class Status : char { Inactive, Preactive, Active, Postactive };

// A binary max-heap of nodes keyed by `priority`, with each node's heap position kept so a
// priority can be raised in place. Higher priority first, lower node index on ties.
class CandidateHeap {
 public:
  CandidateHeap(const std::vector<std::int64_t>& priority, int n) : priority_(priority), position_(n, -1) {}

  bool empty() const { return heap_.empty(); }
  void insert(int node) {
    position_[node] = static_cast<int>(heap_.size());
    heap_.push_back(node);
    sift_up(position_[node]);
  }
  // Call after raising priority[node] of a node in the heap.
  void raised(int node) {
    if (position_[node] != -1) sift_up(position_[node]);
  }
  int pop() {
    const int top = heap_.front();
    position_[top] = -1;
    const int last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_[0] = last;
      position_[last] = 0;
      sift_down(0);
    }
    return top;
  }

 private:
  bool before(int a, int b) const { return priority_[a] != priority_[b] ? priority_[a] > priority_[b] : a < b; }
  void place(int k, int node) {
    heap_[k] = node;
    position_[node] = k;
  }
  void sift_up(int k) {
    const int node = heap_[k];
    while (k > 0 && before(node, heap_[(k - 1) / 2])) {
      place(k, heap_[(k - 1) / 2]);
      k = (k - 1) / 2;
    }
    place(k, node);
  }
  void sift_down(int k) {
    const int node = heap_[k];
    const int size = static_cast<int>(heap_.size());
    for (;;) {
      int child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && before(heap_[child + 1], heap_[child])) ++child;
      if (!before(heap_[child], node)) break;
      place(k, heap_[child]);
      k = child;
    }
    place(k, node);
  }

  const std::vector<std::int64_t>& priority_;
  std::vector<int> position_;
  std::vector<int> heap_;
};

}  // namespace

Permutation sloan(const NodeGraph& graph, SloanWeights weights) {
  if (weights.distance < 0 || weights.degree < 0)
    throw std::invalid_argument("sloan: weights must be >= 0, got W1 = " + std::to_string(weights.distance) +
                                ", W2 = " + std::to_string(weights.degree));
  const int n = graph.num_nodes();
  const std::int64_t w1 = weights.distance, w2 = weights.degree;
  std::vector<int> scratch(n, -1);
  std::vector<Status> status(n, Status::Inactive);
  std::vector<std::int64_t> priority(n, 0);
  CandidateHeap candidates(priority, n);
  std::vector<int> order;
  order.reserve(n);

  auto raise = [&](int node) {
    priority[node] += w2;
    candidates.raised(node);
  };
  auto activate_if_inactive = [&](int node) {
    if (status[node] != Status::Inactive) return;
    status[node] = Status::Preactive;
    candidates.insert(node);
  };

  for (int seed : component_seeds(graph)) {
    const PseudoDiameter diameter = pseudo_diameter(graph, seed, scratch);
    const LevelStructure& from_end = diameter.from_end.levels;
    // Initial priority: the far-end distance against the front growth, which starts at degree + 1.
    for (int L = 0; L < from_end.depth(); ++L)
      for (int i : from_end.level(L)) priority[i] = w1 * L - w2 * (graph.degree(i) + 1);

    const int start = diameter.from_start.root;
    status[start] = Status::Preactive;
    candidates.insert(start);
    while (!candidates.empty()) {
      const int i = candidates.pop();
      // Numbering a preactive node brings its neighbours into the front: each gets one step
      // cheaper to number.
      if (status[i] == Status::Preactive)
        for (int j : graph.neighbours_of(i)) {
          raise(j);
          activate_if_inactive(j);
        }
      order.push_back(i);
      status[i] = Status::Postactive;
      // Preactive neighbours become active (their own row enters the front); their neighbours
      // outside the numbered set get cheaper, and the untouched ones become candidates.
      for (int j : graph.neighbours_of(i)) {
        if (status[j] != Status::Preactive) continue;
        status[j] = Status::Active;
        raise(j);
        for (int k : graph.neighbours_of(j)) {
          if (status[k] == Status::Postactive) continue;
          raise(k);
          activate_if_inactive(k);
        }
      }
    }
  }
  return Permutation::from_old_of_new(std::move(order));
}

}  // namespace fem::renumber

#include "fem/renumber/level_structure.hpp"

#include <algorithm>

namespace fem::renumber {
namespace {

// The last-level nodes worth trying as far ends: one per distinct degree, least degree first,
// at most `limit` of them (trying every one costs a search each and rarely pays).
std::vector<int> shrunk_last_level(const NodeGraph& graph, const LevelStructure& levels, std::size_t limit) {
  std::span<const int> last = levels.level(levels.depth() - 1);
  std::vector<int> candidates(last.begin(), last.end());
  std::sort(candidates.begin(), candidates.end(), LessDegree{graph});
  auto same_degree = [&](int a, int b) { return graph.degree(a) == graph.degree(b); };
  candidates.erase(std::unique(candidates.begin(), candidates.end(), same_degree), candidates.end());
  if (candidates.size() > limit) candidates.resize(limit);
  return candidates;
}

}  // namespace

int LevelStructure::width() const {
  int width = 0;
  for (int L = 0; L < depth(); ++L) width = std::max(width, level_start[L + 1] - level_start[L]);
  return width;
}

LevelStructure rooted_level_structure(const NodeGraph& graph, int root, std::vector<int>& scratch) {
  LevelStructure levels;
  levels.nodes.push_back(root);
  scratch[root] = 0;
  levels.level_start.push_back(0);
  std::size_t level_begin = 0;
  while (level_begin < levels.nodes.size()) {
    const std::size_t level_end = levels.nodes.size();
    levels.level_start.push_back(static_cast<int>(level_end));
    for (std::size_t k = level_begin; k < level_end; ++k)
      for (int j : graph.neighbours_of(levels.nodes[k]))
        if (scratch[j] == -1) {
          scratch[j] = 0;
          levels.nodes.push_back(j);
        }
    level_begin = level_end;
  }
  for (int i : levels.nodes) scratch[i] = -1;
  return levels;
}

std::vector<int> component_seeds(const NodeGraph& graph) {
  const int n = graph.num_nodes();
  std::vector<char> seen(n, 0);
  std::vector<int> seeds, stack;
  for (int i = 0; i < n; ++i) {
    if (seen[i]) continue;
    int best = i;
    seen[i] = 1;
    stack.push_back(i);
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      if (LessDegree{graph}(v, best)) best = v;
      for (int j : graph.neighbours_of(v))
        if (!seen[j]) {
          seen[j] = 1;
          stack.push_back(j);
        }
    }
    seeds.push_back(best);
  }
  return seeds;
}

RootedLevels george_liu_pseudo_peripheral(const NodeGraph& graph, int seed, std::vector<int>& scratch) {
  RootedLevels current{seed, rooted_level_structure(graph, seed, scratch)};
  for (;;) {
    std::span<const int> last = current.levels.level(current.levels.depth() - 1);
    const int far = *std::min_element(last.begin(), last.end(), LessDegree{graph});
    RootedLevels next{far, rooted_level_structure(graph, far, scratch)};
    if (next.levels.depth() <= current.levels.depth()) return next;
    current = std::move(next);
  }
}

std::vector<int> narrow_pseudo_peripheral_roots(const NodeGraph& graph, int seed, std::vector<int>& scratch,
                                                int samples) {
  const RootedLevels george_liu = george_liu_pseudo_peripheral(graph, seed, scratch);
  std::span<const int> last = george_liu.levels.level(george_liu.levels.depth() - 1);
  int least_degree = graph.degree(last.front());
  for (int x : last) least_degree = std::min(least_degree, graph.degree(x));
  std::vector<int> least;
  for (int x : last)
    if (graph.degree(x) == least_degree && x != george_liu.root) least.push_back(x);
  struct Ranked {
    int depth, width, root;
    bool operator<(const Ranked& o) const {
      return depth != o.depth ? depth > o.depth : width != o.width ? width < o.width : root < o.root;
    }
  };
  std::vector<Ranked> ranked{{george_liu.levels.depth(), george_liu.levels.width(), george_liu.root}};
  const std::size_t count = std::min<std::size_t>(least.size(), static_cast<std::size_t>(std::max(samples, 0)));
  for (std::size_t k = 0; k < count; ++k) {
    const int candidate = least[k * least.size() / count];
    const LevelStructure levels = rooted_level_structure(graph, candidate, scratch);
    ranked.push_back({levels.depth(), levels.width(), candidate});
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<int> roots;
  for (const Ranked& r : ranked) roots.push_back(r.root);
  return roots;
}

PseudoDiameter pseudo_diameter(const NodeGraph& graph, int seed, std::vector<int>& scratch) {
  constexpr std::size_t max_candidates = 5;
  RootedLevels start{seed, rooted_level_structure(graph, seed, scratch)};
  for (;;) {
    RootedLevels end{-1, {}};
    int end_width = 0;
    bool deeper_found = false;
    for (int candidate : shrunk_last_level(graph, start.levels, max_candidates)) {
      RootedLevels trial{candidate, rooted_level_structure(graph, candidate, scratch)};
      if (trial.levels.depth() > start.levels.depth()) {
        start = std::move(trial);
        deeper_found = true;
        break;
      }
      if (end.root == -1 || trial.levels.width() < end_width) {
        end_width = trial.levels.width();
        end = std::move(trial);
      }
    }
    if (!deeper_found) return {std::move(start), std::move(end)};
  }
}

}  // namespace fem::renumber

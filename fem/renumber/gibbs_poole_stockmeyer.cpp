#include "fem/renumber/gibbs_poole_stockmeyer.hpp"

#include <algorithm>

#include "fem/renumber/level_structure.hpp"

namespace fem::renumber {
namespace {

// Per-node work arrays sized once for the whole graph; each component touches only its own
// entries and puts them back, so many small components cost no more than one big one.
struct Workspace {
  explicit Workspace(int n)
      : scratch(n, -1), level_from_start(n, -1), level_from_end(n, -1), level_of(n, -1), visited(n, 0),
        numbered(n, 0) {}
  std::vector<int> scratch;
  std::vector<int> level_from_start;  // distance from the start node
  std::vector<int> level_from_end;    // depth-1 minus the distance from the end node
  std::vector<int> level_of;          // the combined level, -1 while unassigned
  std::vector<char> visited;
  std::vector<char> numbered;
};

// GPS step 2. Nodes whose levels from both ends agree keep that level; every other connected
// piece goes wholly to the side that keeps the widest level it touches smaller (largest pieces
// first; ties go to the side whose own level structure is narrower).
void combine_level_structures(const NodeGraph& graph, const PseudoDiameter& diameter, Workspace& work) {
  const LevelStructure& from_start = diameter.from_start.levels;
  const LevelStructure& from_end = diameter.from_end.levels;
  const int depth = from_start.depth();
  for (int L = 0; L < depth; ++L) {
    for (int i : from_start.level(L)) work.level_from_start[i] = L;
    for (int i : from_end.level(L)) work.level_from_end[i] = depth - 1 - L;
  }

  std::vector<int> width(depth, 0);
  for (int i : from_start.nodes)
    if (work.level_from_start[i] == work.level_from_end[i]) {
      work.level_of[i] = work.level_from_start[i];
      ++width[work.level_of[i]];
    }
  std::vector<std::vector<int>> pieces;
  for (int i : from_start.nodes) {
    if (work.level_of[i] != -1 || work.visited[i]) continue;
    std::vector<int> piece{i};
    work.visited[i] = 1;
    for (std::size_t k = 0; k < piece.size(); ++k)
      for (int j : graph.neighbours_of(piece[k]))
        if (work.level_of[j] == -1 && !work.visited[j]) {
          work.visited[j] = 1;
          piece.push_back(j);
        }
    pieces.push_back(std::move(piece));
  }
  std::stable_sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });

  const bool start_is_narrower = from_start.width() <= from_end.width();
  std::vector<int> added(depth, 0);
  // The widest level a piece would touch if placed by `level_in` (widths as they stand).
  auto widest_touched = [&](const std::vector<int>& piece, const std::vector<int>& level_in) {
    for (int i : piece) ++added[level_in[i]];
    int widest = 0;
    for (int i : piece) {
      const int L = level_in[i];
      widest = std::max(widest, width[L] + added[L]);
    }
    for (int i : piece) added[level_in[i]] = 0;
    return widest;
  };
  for (const auto& piece : pieces) {
    const int by_start = widest_touched(piece, work.level_from_start);
    const int by_end = widest_touched(piece, work.level_from_end);
    const bool use_start = by_start < by_end || (by_start == by_end && start_is_narrower);
    const std::vector<int>& chosen = use_start ? work.level_from_start : work.level_from_end;
    for (int i : piece) {
      work.level_of[i] = chosen[i];
      ++width[chosen[i]];
    }
  }
}

// GPS step 3: number level by level from `root` (in level 0). Within a level, each numbered
// node in turn numbers its unnumbered neighbours there (least degree first); a level left with
// unreached nodes restarts from its least-degree one. Then the level's nodes, in numbering
// order, reach into the next level the same way.
void number_by_levels(const NodeGraph& graph, const std::vector<int>& component, int depth, int root, Workspace& work,
                      std::vector<int>& order) {
  // Members of each level, least degree first, for the restarts.
  std::vector<int> level_begin(depth + 1, 0);
  for (int i : component) ++level_begin[work.level_of[i] + 1];
  for (int L = 0; L < depth; ++L) level_begin[L + 1] += level_begin[L];
  std::vector<int> members(component.size());
  std::vector<int> fill(level_begin.begin(), level_begin.end() - 1);
  for (int i : component) members[fill[work.level_of[i]]++] = i;
  for (int L = 0; L < depth; ++L)
    std::sort(members.begin() + level_begin[L], members.begin() + level_begin[L + 1], LessDegree{graph});

  auto number_neighbours_in_level = [&](int x, int L) {
    const std::size_t begin = order.size();
    for (int j : graph.neighbours_of(x))
      if (work.level_of[j] == L && !work.numbered[j]) {
        work.numbered[j] = 1;
        order.push_back(j);
      }
    std::sort(order.begin() + begin, order.end(), LessDegree{graph});
  };

  std::size_t level_first = order.size();  // where the current level's numbered nodes begin
  work.numbered[root] = 1;
  order.push_back(root);
  for (int L = 0; L < depth; ++L) {
    std::size_t scan = level_first;
    int restart = level_begin[L];
    for (;;) {
      for (; scan < order.size(); ++scan) number_neighbours_in_level(order[scan], L);
      while (restart < level_begin[L + 1] && work.numbered[members[restart]]) ++restart;
      if (restart == level_begin[L + 1]) break;
      work.numbered[members[restart]] = 1;
      order.push_back(members[restart]);
    }
    const std::size_t level_end = order.size();
    if (L + 1 < depth)
      for (std::size_t p = level_first; p < level_end; ++p) number_neighbours_in_level(order[p], L + 1);
    level_first = level_end;
  }
}

}  // namespace

Permutation gibbs_poole_stockmeyer(const NodeGraph& graph) {
  const int n = graph.num_nodes();
  Workspace work(n);
  std::vector<int> order;  // old node per position, before the final reversal
  order.reserve(n);
  for (int seed : component_seeds(graph)) {
    const PseudoDiameter diameter = pseudo_diameter(graph, seed, work.scratch);
    combine_level_structures(graph, diameter, work);
    const std::vector<int>& component = diameter.from_start.levels.nodes;
    const int depth = diameter.from_start.levels.depth();
    // Start from the end of smaller degree, as GPS does, reading the levels from there.
    int root = diameter.from_start.root;
    if (graph.degree(diameter.from_end.root) < graph.degree(root)) {
      root = diameter.from_end.root;
      for (int i : component) work.level_of[i] = depth - 1 - work.level_of[i];
    }
    number_by_levels(graph, component, depth, root, work, order);
    for (int i : component) {
      work.level_from_start[i] = work.level_from_end[i] = work.level_of[i] = -1;
      work.visited[i] = 0;
    }
  }
  std::reverse(order.begin(), order.end());
  return Permutation::from_old_of_new(std::move(order));
}

}  // namespace fem::renumber

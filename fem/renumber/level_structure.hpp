#pragma once
// Rooted level structures (breadth-first layers) and the pseudo-peripheral nodes found with
// them: the common ground of RCM, GPS and Sloan.
#include <span>
#include <vector>

#include "fem/renumber/node_graph.hpp"

namespace fem::renumber {

struct LevelStructure {
  std::vector<int> nodes;        // the root's component in breadth-first order
  std::vector<int> level_start;  // level L is nodes[level_start[L] .. level_start[L+1])

  int depth() const { return static_cast<int>(level_start.size()) - 1; }
  int width() const;
  std::span<const int> level(int L) const {
    return {nodes.data() + level_start[L], static_cast<std::size_t>(level_start[L + 1] - level_start[L])};
  }
};

// Breadth-first search over the component of `root`. `scratch` has one entry per node, all -1;
// it is left that way again.
LevelStructure rooted_level_structure(const NodeGraph& graph, int root, std::vector<int>& scratch);

// One node per connected component (isolated nodes included): the node of least degree
// (lowest index on ties), listed in the order of each component's lowest node.
std::vector<int> component_seeds(const NodeGraph& graph);

// George & Liu (1979): from `seed`, jump to a least-degree node of the last level while that
// makes the level structure deeper. Returns the node reached with its level structure.
struct RootedLevels {
  int root;
  LevelStructure levels;
};
RootedLevels george_liu_pseudo_peripheral(const NodeGraph& graph, int seed, std::vector<int>& scratch);

// Roots for RCM, best first: the George-Liu node and up to `samples` least-degree nodes of its
// last level (evenly spread over that level), ordered by deeper then narrower (least maximum
// level size) level structure. Narrow levels give RCM a small bandwidth; on meshes where many
// nodes share the least degree (hex27: every element centre), degree alone picks a poor root.
std::vector<int> narrow_pseudo_peripheral_roots(const NodeGraph& graph, int seed, std::vector<int>& scratch,
                                                int samples = 4);

// Gibbs, Poole & Stockmeyer (1976), with the candidate set shrunk to one node per degree of the
// last level: two ends of a pseudo-diameter, each with its level structure (equal depths).
// `from_end` is the candidate level structure of least width.
struct PseudoDiameter {
  RootedLevels from_start;
  RootedLevels from_end;
};
PseudoDiameter pseudo_diameter(const NodeGraph& graph, int seed, std::vector<int>& scratch);

}  // namespace fem::renumber

#pragma once
// The node adjacency graph of a mesh: two nodes are neighbours when some element holds both.
// Renumbering works on this graph only, so it takes plain connectivity arrays, not a Mesh.
#include <cstddef>
#include <span>
#include <vector>

#include "kernels/uninitialized_allocator.hpp"

namespace fem::renumber {

// Symmetric adjacency in CSR form: node i's neighbours are neighbour[offset[i] .. offset[i+1]),
// sorted ascending, without i itself and without repeats.
// The neighbour and element lists are made with no zeroing first (the parallel loops that fill
// them touch their pages first: a zero fill by one thread was most of the graph's time on 16 threads).
struct NodeGraph {
  std::vector<std::size_t> offset{0};
  kernels::UninitializedVector<int> neighbour;

  int num_nodes() const { return static_cast<int>(offset.size()) - 1; }
  std::size_t num_edges_directed() const { return neighbour.size(); }  // each edge counted from both ends
  int degree(int i) const { return static_cast<int>(offset[i + 1] - offset[i]); }
  std::span<const int> neighbours_of(int i) const {
    return {neighbour.data() + offset[i], offset[i + 1] - offset[i]};
  }
};

// Orders nodes by increasing degree, lower index first among equals: the tie-break every
// ordering here uses, so results do not depend on the sort algorithm.
struct LessDegree {
  const NodeGraph& graph;
  bool operator()(int a, int b) const {
    return graph.degree(a) != graph.degree(b) ? graph.degree(a) < graph.degree(b) : a < b;
  }
};

// The graph of element connectivity given as element_offsets (num_elements + 1 entries,
// starting at 0, non-decreasing) and element_nodes (0-based, < num_nodes). Elements may have
// any number of nodes (mixed types); nodes in no element become isolated vertices.
// Throws std::invalid_argument naming the first bad entry.
NodeGraph node_graph_from_elements(std::span<const std::size_t> element_offsets,
                                   std::span<const int> element_nodes, int num_nodes);

// The inverse incidence: for each node, the elements that hold it (ascending), as
// offsets (num_nodes + 1) and element indices. Used for element graphs and front tracking.
struct NodeElements {
  std::vector<std::size_t> offset;
  kernels::UninitializedVector<int> element;
};
NodeElements elements_of_nodes(std::span<const std::size_t> element_offsets,
                               std::span<const int> element_nodes, int num_nodes);

}  // namespace fem::renumber

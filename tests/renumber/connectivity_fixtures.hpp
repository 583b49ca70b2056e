#pragma once
// Element connectivity for the renumbering tests: structured grids, tetrahedral boxes and random mixed meshes
// with several parts and isolated nodes, plus a random relabelling of the nodes.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <random>
#include <vector>

namespace fem::renumber::testing {

struct Connectivity {
  std::vector<std::size_t> offsets{0};
  std::vector<int> nodes;
  int num_nodes = 0;

  int num_elements() const { return static_cast<int>(offsets.size()) - 1; }
  void add(std::initializer_list<int> element) {
    nodes.insert(nodes.end(), element);
    offsets.push_back(nodes.size());
  }
};

// An nx x ny lattice of points (node = i + nx*j): quadrilateral cells, or (edges_only) the
// 4-neighbour grid graph as two-node elements.
inline Connectivity grid(int nx, int ny, bool edges_only) {
  Connectivity c;
  c.num_nodes = nx * ny;
  auto id = [&](int i, int j) { return i + nx * j; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (edges_only) {
        if (i + 1 < nx) c.add({id(i, j), id(i + 1, j)});
        if (j + 1 < ny) c.add({id(i, j), id(i, j + 1)});
      } else if (i + 1 < nx && j + 1 < ny) {
        c.add({id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)});
      }
    }
  return c;
}

// An nx x ny x nz lattice of points (node = i + nx*(j + ny*k)), each cube split into the six
// Kuhn tetrahedra that share its diagonal from the lowest to the highest corner.
inline Connectivity tetrahedra(int nx, int ny, int nz) {
  Connectivity c;
  c.num_nodes = nx * ny * nz;
  auto id = [&](int i, int j, int k) { return i + nx * (j + ny * k); };
  const int axes[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k + 1 < nz; ++k)
    for (int j = 0; j + 1 < ny; ++j)
      for (int i = 0; i + 1 < nx; ++i)
        for (const auto& order : axes) {
          int p[3] = {i, j, k};
          const int first = id(p[0], p[1], p[2]);
          ++p[order[0]];
          const int second = id(p[0], p[1], p[2]);
          ++p[order[1]];
          const int third = id(p[0], p[1], p[2]);
          ++p[order[2]];
          c.add({first, second, third, id(p[0], p[1], p[2])});
        }
  return c;
}

// Random mixed elements of 1 to 9 nodes over three separate parts (each part's elements
// draw nodes from its own range), with the nodes of a fourth range left isolated; the
// numbering is shuffled so parts and isolated nodes interleave.
inline Connectivity random_mixed_mesh(unsigned seed, int nodes_per_part) {
  std::mt19937 rng(seed);
  Connectivity c;
  const int parts = 3;
  c.num_nodes = (parts + 1) * nodes_per_part;
  std::uniform_int_distribution<int> element_size(1, 9), local_node(0, nodes_per_part - 1);
  for (int part = 0; part < parts; ++part)
    for (int e = 0; e < nodes_per_part; ++e) {
      const int size = element_size(rng);
      for (int k = 0; k < size; ++k) c.nodes.push_back(part * nodes_per_part + local_node(rng));
      c.offsets.push_back(c.nodes.size());
    }
  std::vector<int> relabel(c.num_nodes);
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  for (int& v : c.nodes) v = relabel[v];
  return c;
}

// The same mesh with its nodes relabelled at random.
inline Connectivity shuffled(Connectivity c, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<int> relabel(c.num_nodes);
  std::iota(relabel.begin(), relabel.end(), 0);
  std::shuffle(relabel.begin(), relabel.end(), rng);
  for (int& v : c.nodes) v = relabel[v];
  return c;
}

}  // namespace fem::renumber::testing

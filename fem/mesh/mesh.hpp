#pragma once
// The mesh as every later stage sees it: node coordinates, elements of mixed types in
// Gmsh node order, and named physical groups. A plain value; no Gmsh types leak out.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "fem/elements/element_type.hpp"

namespace fem {

// Elements of one dimension, possibly of mixed types, stored compressed (CSR-like).
struct ElementSet {
  std::vector<ElementType> type;
  std::vector<std::size_t> offset{0};  // element e's nodes are node[offset[e] .. offset[e+1])
  std::vector<int> node;               // 0-based node indices
  std::vector<std::size_t> tag;        // the file's element tags (Gmsh meshes); empty: numbered 1..

  std::size_t size() const { return type.size(); }
  // How messages name element e: its tag in the mesh file, or its 1-based number.
  std::size_t tag_of(std::size_t e) const { return tag.empty() ? e + 1 : tag[e]; }
  std::span<const int> nodes_of(std::size_t e) const {
    return {node.data() + offset[e], offset[e + 1] - offset[e]};
  }
  void add(ElementType t, std::span<const int> nodes) {
    type.push_back(t);
    node.insert(node.end(), nodes.begin(), nodes.end());
    offset.push_back(node.size());
  }
};

// A Gmsh physical group: a name, its dimension and the elements it holds. Groups of the
// mesh's own dimension are regions (materials); lower-dimensional ones are boundaries.
struct PhysicalGroup {
  std::string name;
  int dimension = 0;
  std::vector<std::size_t> elements;  // indices into Mesh::cells (dimension == mesh dim) or Mesh::boundary
};

struct Mesh {
  int dimension = 0;                   // 2 or 3: the dimension of the cells
  std::vector<double> coords;          // 3 per node (z = 0 in 2D)
  ElementSet cells;                    // elements of the mesh's dimension
  ElementSet boundary;                 // lower-dimensional elements that carry boundary groups
  std::vector<PhysicalGroup> groups;
  std::string source;                  // where it came from, for messages ("meshes/plate.geo", "box")

  std::size_t num_nodes() const { return coords.size() / 3; }
  const PhysicalGroup* find_group(const std::string& name) const {
    for (const auto& g : groups)
      if (g.name == name) return &g;
    return nullptr;
  }
};

}  // namespace fem

#include "fem/mesh/overlap_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "fem/elements/reference_element.hpp"
#include "fem/mesh/box_tree.hpp"
#include "fem/mesh/mesh_messages.hpp"
#include "fem/mesh/point_in_cell.hpp"

namespace fem {
namespace {

const double* at(const Mesh& mesh, int node) { return &mesh.coords[3 * static_cast<std::size_t>(node)]; }

double distance(const double* a, const double* b) { return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); }

// Whether x lies strictly inside cell e (point_in_cell.hpp).
bool inside(const Mesh& mesh, std::size_t e, const double* x) {
  std::array<double, 3 * kMaxElementNodes> xyz;
  const auto nodes = mesh.cells.nodes_of(e);
  for (std::size_t i = 0; i < nodes.size(); ++i) std::copy(at(mesh, nodes[i]), at(mesh, nodes[i]) + 3, xyz.begin() + static_cast<std::ptrdiff_t>(3 * i));
  return point_strictly_inside(mesh.cells.type[e], std::span<const double>(xyz.data(), 3 * nodes.size()), x);
}

bool owns(const Mesh& mesh, std::size_t e, int node) {
  const auto nodes = mesh.cells.nodes_of(e);
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

std::string place(const double* x) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.9g, %.9g, %.9g)", x[0], x[1], x[2]);
  return text;
}

// The cells of each node (CSR): which element a node is named by, and whether two nodes share one.
struct NodeCells {
  std::vector<std::size_t> offset, cell;
  explicit NodeCells(const Mesh& mesh) : offset(mesh.num_nodes() + 1, 0) {
    for (int n : mesh.cells.node) ++offset[static_cast<std::size_t>(n) + 1];
    for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
    cell.resize(offset.back());
    std::vector<std::size_t> next(offset.begin(), offset.end() - 1);
    for (std::size_t e = 0; e < mesh.cells.size(); ++e)
      for (int n : mesh.cells.nodes_of(e)) cell[next[static_cast<std::size_t>(n)]++] = e;
  }
  std::span<const std::size_t> of(int node) const {
    return {cell.data() + offset[static_cast<std::size_t>(node)], offset[static_cast<std::size_t>(node) + 1] - offset[static_cast<std::size_t>(node)]};
  }
};

// The smallest distance between two corners of each cell: the local element size.
std::vector<double> cell_sizes(const Mesh& mesh) {
  std::vector<double> size(mesh.cells.size());
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const auto nodes = mesh.cells.nodes_of(e);
    const int nv = element_info(mesh.cells.type[e]).num_vertices;
    double smallest = HUGE_VAL;
    for (int i = 0; i < nv; ++i)
      for (int j = i + 1; j < nv; ++j) smallest = std::min(smallest, distance(at(mesh, nodes[i]), at(mesh, nodes[j])));
    size[e] = smallest;
  }
  return size;
}

// Each cell's box over all its nodes (a curved side bulges past its corners), grown by the
// distance within which another node counts as at the same place as one of its own.
BoxTree cell_box_tree(const Mesh& mesh, const std::vector<double>& size) {
  std::vector<Box> boxes(mesh.cells.size());
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    Box& b = boxes[e];
    b.lo = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    b.hi = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int node : mesh.cells.nodes_of(e))
      for (std::size_t k = 0; k < 3; ++k) {
        b.lo[k] = std::min(b.lo[k], at(mesh, node)[k]);
        b.hi[k] = std::max(b.hi[k], at(mesh, node)[k]);
      }
    const double grow = kUnmergedNodeFraction * size[e];
    for (std::size_t k = 0; k < 3; ++k) {
      b.lo[k] -= grow;
      b.hi[k] += grow;
    }
  }
  return BoxTree(std::move(boxes));
}

// The image of the reference element's centre: inside the cell, away from its faces.
std::array<double, 3> cell_centre(const Mesh& mesh, std::size_t e) {
  const ElementType type = mesh.cells.type[e];
  const auto& info = element_info(type);
  const bool simplex = info.shape == ElementShape::Triangle || info.shape == ElementShape::Tetrahedron;
  double xi[3] = {0, 0, 0};
  if (simplex) std::fill(xi, xi + info.dimension, 1.0 / (info.dimension + 1));
  double N[kMaxElementNodes];
  shape_functions(type, xi, N);
  std::array<double, 3> x{0, 0, 0};
  const auto nodes = mesh.cells.nodes_of(e);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) x[k] += N[i] * at(mesh, nodes[i])[k];
  return x;
}

void check_cell_centres(const Mesh& mesh, const BoxTree& tree) {
  for (std::size_t a = 0; a < mesh.cells.size(); ++a) {
    const auto centre = cell_centre(mesh, a);
    tree.for_each_holding(centre.data(), [&](std::size_t b) {
      if (b != a && inside(mesh, b, centre.data()))
        fail_mesh(mesh, describe_element(mesh, mesh.cells, a) + " overlaps " + describe_element(mesh, mesh.cells, b) +
                            ": its centre " + place(centre.data()) + " lies inside it (a cell repeated with nodes of its own, or two parts meshed into each other?)");
      return true;
    });
  }
}

// Another cell's node at the same place as one of b's nodes, with no cell holding both.
void check_unmerged(const Mesh& mesh, const NodeCells& cells_of, const std::vector<double>& size, int node, std::size_t b) {
  for (int other : mesh.cells.nodes_of(b)) {
    const double apart = distance(at(mesh, node), at(mesh, other));
    if (apart > kUnmergedNodeFraction * size[b]) continue;
    const auto joint = cells_of.of(node);
    if (std::any_of(joint.begin(), joint.end(), [&](std::size_t c) { return owns(mesh, c, other); })) continue;
    char distance_text[32];
    std::snprintf(distance_text, sizeof distance_text, "%.3g", apart);
    fail_mesh(mesh, "the node at " + place(at(mesh, node)) + " of " + describe_element(mesh, mesh.cells, joint[0]) +
                        " and the node at " + place(at(mesh, other)) + " of " + describe_element(mesh, mesh.cells, b) + " are " +
                        distance_text + " apart but no element joins them: the mesh is split there by unmerged nodes (a crack). "
                        "Merge them (Gmsh: Coherence Mesh; Geometry.Tolerance for nodes nearly at one place), or set "
                        "'mesh.allow_unmerged_nodes: true' in the case if the parts are meant to be apart");
  }
}

void check_nodes(const Mesh& mesh, const BoxTree& tree, const std::vector<double>& size, bool allow_unmerged_nodes) {
  const NodeCells cells_of(mesh);
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const int node = static_cast<int>(n);
    if (cells_of.of(node).empty()) continue;
    tree.for_each_holding(at(mesh, node), [&](std::size_t b) {
      if (owns(mesh, b, node)) return true;
      if (!allow_unmerged_nodes) check_unmerged(mesh, cells_of, size, node, b);
      if (inside(mesh, b, at(mesh, node)))
        fail_mesh(mesh, "the node at " + place(at(mesh, node)) + " of " + describe_element(mesh, mesh.cells, cells_of.of(node)[0]) +
                            " lies inside " + describe_element(mesh, mesh.cells, b) +
                            ", which does not share it: the two overlap (a part meshed into another, or a node moved into its neighbour?)");
      return true;
    });
  }
}

}  // namespace

void check_overlaps(const Mesh& mesh, bool allow_unmerged_nodes) {
  const auto size = cell_sizes(mesh);
  const BoxTree tree = cell_box_tree(mesh, size);
  check_cell_centres(mesh, tree);
  check_nodes(mesh, tree, size, allow_unmerged_nodes);
}

}  // namespace fem

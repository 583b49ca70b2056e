#include "fem/mesh/overlap_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "fem/elements/reference_element.hpp"
#include "fem/mesh/box_tree.hpp"
#include "fem/mesh/mesh_messages.hpp"
#include "fem/mesh/point_in_cell.hpp"

namespace fem {
namespace {

const double* at(const Mesh& mesh, int node) { return &mesh.coords[3 * static_cast<std::size_t>(node)]; }

double squared_distance(const double* a, const double* b) {
  return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
}

// Whether x lies strictly inside cell e (point_in_cell.hpp).
bool inside(const Mesh& mesh, std::size_t e, const double* x) {
  std::array<double, 3 * kMaxElementNodes> xyz;
  const auto nodes = mesh.cells.nodes_of(e);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) xyz[3 * i + k] = at(mesh, nodes[i])[k];
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
#pragma omp parallel for schedule(static)
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const auto nodes = mesh.cells.nodes_of(e);
    const int nv = element_info(mesh.cells.type[e]).num_vertices;
    double smallest = HUGE_VAL;
    for (int i = 0; i < nv; ++i)
      for (int j = i + 1; j < nv; ++j) smallest = std::min(smallest, squared_distance(at(mesh, nodes[i]), at(mesh, nodes[j])));
    size[e] = std::sqrt(smallest);
  }
  return size;
}

// Each cell's box over all its nodes (a curved side bulges past its corners), grown by the
// distance within which another node counts as at the same place as one of its own.
BoxTree cell_box_tree(const Mesh& mesh, const std::vector<double>& size) {
  std::vector<Box> boxes(mesh.cells.size());
#pragma omp parallel for schedule(static)
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

// The smallest of `items` (cells or nodes) for which bad(item) holds, if any. The items are
// taken in the tree's leaf order, in which consecutive queries share their path down the tree;
// the loop runs on OpenMP's threads (one in the meshing child); the smallest is reported so that
// the error names the same elements on every run.
template <class Bad>
std::optional<std::size_t> smallest_bad(const std::vector<std::uint32_t>& items, const Bad& bad) {
  std::size_t smallest = SIZE_MAX;
#pragma omp parallel for schedule(dynamic, 4096) reduction(min : smallest)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(items.size()); ++i) {
    const std::size_t item = items[static_cast<std::size_t>(i)];
    if (item < smallest && bad(item)) smallest = item;
  }
  if (smallest == SIZE_MAX) return std::nullopt;
  return smallest;
}

// The nodes in the order the tree's leaves first reach them.
std::vector<std::uint32_t> nodes_in_leaf_order(const Mesh& mesh, const BoxTree& tree) {
  std::vector<std::uint32_t> order;
  order.reserve(mesh.num_nodes());
  std::vector<bool> seen(mesh.num_nodes(), false);
  for (std::uint32_t cell : tree.leaf_order())
    for (int node : mesh.cells.nodes_of(cell))
      if (!seen[static_cast<std::size_t>(node)]) {
        seen[static_cast<std::size_t>(node)] = true;
        order.push_back(static_cast<std::uint32_t>(node));
      }
  return order;
}

// The cell other than a whose inside holds a's centre, or none.
std::optional<std::size_t> cell_over_centre(const Mesh& mesh, const BoxTree& tree, std::size_t a) {
  const auto centre = cell_centre(mesh, a);
  std::optional<std::size_t> found;
  tree.for_each_holding(centre.data(), [&](std::size_t b) {
    if (b != a && inside(mesh, b, centre.data())) found = b;
    return !found;
  });
  return found;
}

void check_cell_centres(const Mesh& mesh, const BoxTree& tree) {
  const auto a = smallest_bad(tree.leaf_order(), [&](std::size_t e) { return cell_over_centre(mesh, tree, e).has_value(); });
  if (!a) return;
  const std::size_t b = *cell_over_centre(mesh, tree, *a);
  fail_mesh(mesh, describe_element(mesh, mesh.cells, *a) + " overlaps " + describe_element(mesh, mesh.cells, b) + ": its centre " +
                      place(cell_centre(mesh, *a).data()) +
                      " lies inside it (a cell repeated with nodes of its own, or two parts meshed into each other?)");
}

// What is wrong where a node lies in the box of a cell b that does not own it: another node of
// b at (nearly) its place that no cell joins it to (unless allowed), or b's inside holding it.
struct NodeProblem {
  std::size_t cell;  // b
  int twin = -1;     // the node of b at its place, for a crack; -1 for an overlap
};

struct NodeContext {
  const Mesh& mesh;
  const BoxTree& tree;
  const NodeCells& cells_of;
  const std::vector<double>& size;
  bool allow_unmerged_nodes;
};

// b's node at the place of `node` (within the local size), when no cell holds both; else -1.
int unmerged_twin(const NodeContext& c, int node, std::size_t b) {
  for (int other : c.mesh.cells.nodes_of(b)) {
    const double bound = kUnmergedNodeFraction * c.size[b];
    if (squared_distance(at(c.mesh, node), at(c.mesh, other)) > bound * bound) continue;
    const auto joint = c.cells_of.of(node);
    if (std::none_of(joint.begin(), joint.end(), [&](std::size_t cell) { return owns(c.mesh, cell, other); })) return other;
  }
  return -1;
}

std::optional<NodeProblem> node_problem(const NodeContext& c, int node) {
  std::optional<NodeProblem> found;
  c.tree.for_each_holding(at(c.mesh, node), [&](std::size_t b) {
    if (owns(c.mesh, b, node)) return true;
    const int twin = c.allow_unmerged_nodes ? -1 : unmerged_twin(c, node, b);
    if (twin >= 0 || inside(c.mesh, b, at(c.mesh, node))) found = NodeProblem{b, twin};
    return !found;
  });
  return found;
}

void check_nodes(const NodeContext& c) {
  const auto n = smallest_bad(nodes_in_leaf_order(c.mesh, c.tree), [&](std::size_t i) { return node_problem(c, static_cast<int>(i)).has_value(); });
  if (!n) return;
  const int node = static_cast<int>(*n);
  const NodeProblem problem = *node_problem(c, node);
  const std::string here = "the node at " + place(at(c.mesh, node)) + " of " + describe_element(c.mesh, c.mesh.cells, c.cells_of.of(node)[0]);
  const std::string there = describe_element(c.mesh, c.mesh.cells, problem.cell);
  if (problem.twin < 0)
    fail_mesh(c.mesh, here + " lies inside " + there +
                          ", which does not share it: the two overlap (a part meshed into another, or a node moved into its neighbour?)");
  char apart[32];
  std::snprintf(apart, sizeof apart, "%.3g", std::sqrt(squared_distance(at(c.mesh, node), at(c.mesh, problem.twin))));
  fail_mesh(c.mesh, here + " and the node at " + place(at(c.mesh, problem.twin)) + " of " + there + " are " + apart +
                        " apart but no element joins them: the mesh is split there by unmerged nodes (a crack). Merge them "
                        "(Gmsh: Coherence Mesh; Geometry.Tolerance for nodes nearly at one place), or set "
                        "'mesh.allow_unmerged_nodes: true' in the case if the parts are meant to be apart");
}

}  // namespace

void check_overlaps(const Mesh& mesh, bool allow_unmerged_nodes) {
  const auto size = cell_sizes(mesh);
  const BoxTree tree = cell_box_tree(mesh, size);
  check_cell_centres(mesh, tree);
  const NodeCells cells_of(mesh);
  check_nodes({mesh, tree, cells_of, size, allow_unmerged_nodes});
}

}  // namespace fem

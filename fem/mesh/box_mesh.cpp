#include "fem/mesh/box_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "fem/elements/reference_element.hpp"

namespace fem {
namespace {

// Nodes live on a "fine" lattice with `order` points per cell edge, so every node of a
// linear or quadratic element, simplex or tensor, sits on an integer lattice point.
// A block's part of it: `points` per axis from the box's point `origin` on.
struct Lattice {
  std::array<long, 3> points{1, 1, 1};  // lattice points per axis
  std::array<long, 3> origin{0, 0, 0};
  long index(const std::array<long, 3>& p) const {
    return (p[0] - origin[0]) + points[0] * ((p[1] - origin[1]) + points[1] * (p[2] - origin[2]));
  }
  long size() const { return points[0] * points[1] * points[2]; }
};

using Point = std::array<long, 3>;

// Corners (in cell units) of the simplices that split one cell: 2 triangles or 6 Kuhn tetrahedra,
// each walking from corner 0 to the far corner one axis at a time.
std::vector<std::vector<Point>> kuhn_simplices(int dim) {
  std::vector<int> axes(dim);
  std::iota(axes.begin(), axes.end(), 0);
  std::vector<std::vector<Point>> simplices;
  do {
    std::vector<Point> corners{{0, 0, 0}};
    for (int a : axes) {
      Point next = corners.back();
      next[a] = 1;
      corners.push_back(next);
    }
    simplices.push_back(corners);
  } while (std::next_permutation(axes.begin(), axes.end()));
  return simplices;
}

long orientation_sign(const std::vector<Point>& c, int dim) {
  auto d = [&](int i, int k) { return c[i][k] - c[0][k]; };
  if (dim == 2) return d(1, 0) * d(2, 1) - d(1, 1) * d(2, 0);
  return d(1, 0) * (d(2, 1) * d(3, 2) - d(2, 2) * d(3, 1)) - d(1, 1) * (d(2, 0) * d(3, 2) - d(2, 2) * d(3, 0)) +
         d(1, 2) * (d(2, 0) * d(3, 1) - d(2, 1) * d(3, 0));
}

// Emits the elements of a structured grid of dimension axes.size() lying in the block's lattice:
// the cells themselves (all box axes), or one face (the other axes fixed at `fixed`).
class GridEmitter {
 public:
  GridEmitter(const BoxSpec& spec, const BoxBlock& block, const Lattice& lattice)
      : spec_(spec), block_(block), lattice_(lattice) {}

  // Appends the elements in the order of their cells (axis 0 fastest), each cell's elements
  // together; the cells are filled in parallel into arrays sized first.
  void emit(const std::vector<int>& axes, const Point& fixed, ElementType type, ElementSet& out) const {
    const int d = static_cast<int>(axes.size());
    const std::vector<std::vector<Point>> pattern = cell_pattern(type, d);
    std::array<long, 3> first{0, 0, 0}, count{1, 1, 1};
    for (int k = 0; k < d; ++k) {
      first[k] = block_.first[axes[k]];
      count[k] = block_.end[axes[k]] - block_.first[axes[k]];
    }
    const std::size_t cells = static_cast<std::size_t>(count[0] * count[1] * count[2]);
    const std::size_t per_cell = pattern.size(), nodes = pattern.front().size();
    const std::size_t first_element = out.size(), first_node = out.node.size();
    out.type.resize(first_element + cells * per_cell, type);
    out.node.resize(first_node + cells * per_cell * nodes);
    out.offset.resize(first_element + cells * per_cell + 1);
#pragma omp parallel for schedule(static)
    for (std::size_t c = 0; c < cells; ++c) {
      const long i = static_cast<long>(c);
      const Point cell{first[0] + i % count[0], first[1] + i / count[0] % count[1], first[2] + i / (count[0] * count[1])};
      for (std::size_t k = 0; k < per_cell; ++k) {
        const std::size_t element = c * per_cell + k;
        int* element_nodes = &out.node[first_node + element * nodes];
        for (std::size_t a = 0; a < nodes; ++a) element_nodes[a] = node_at(axes, fixed, cell, pattern[k][a]);
        out.offset[first_element + element + 1] = first_node + (element + 1) * nodes;
      }
    }
  }

 private:
  // Per element of one cell (one, or the 2 or 6 simplices that split it), the lattice offset of
  // each of its nodes from the cell's first lattice point: the same for every cell.
  std::vector<std::vector<Point>> cell_pattern(ElementType type, int d) const {
    const auto& info = element_info(type);
    const auto ref = reference_nodes(type);
    const bool simplex = info.shape == ElementShape::Triangle || info.shape == ElementShape::Tetrahedron;
    std::vector<std::vector<Point>> pattern;
    if (!simplex) {
      // Tensor reference coordinates are in [-1, 1]: offset (xi + 1) * order / 2 lattice steps.
      std::vector<Point> nodes(info.num_nodes, Point{0, 0, 0});
      for (int i = 0; i < info.num_nodes; ++i)
        for (int k = 0; k < d; ++k) nodes[i][k] = std::lround((ref[i * d + k] + 1.0) * spec_.order / 2.0);
      pattern.push_back(std::move(nodes));
      return pattern;
    }
    for (auto corners : kuhn_simplices(d)) {
      if (orientation_sign(corners, d) < 0) std::swap(corners[1], corners[2]);
      // Simplex reference coordinates (u, v, w) in [0, 1]: x = c0 + u (c1 - c0) + v (c2 - c0) + ...
      std::vector<Point> nodes(info.num_nodes, Point{0, 0, 0});
      for (int i = 0; i < info.num_nodes; ++i)
        for (int k = 0; k < d; ++k) {
          double x = static_cast<double>(corners[0][k]);
          for (int j = 0; j < d; ++j) x += ref[i * d + j] * static_cast<double>(corners[j + 1][k] - corners[0][k]);
          nodes[i][k] = std::lround(x * spec_.order);
        }
      pattern.push_back(std::move(nodes));
    }
    return pattern;
  }

  int node_at(const std::vector<int>& axes, const Point& fixed, const Point& cell, const Point& local) const {
    Point p = fixed;
    for (std::size_t k = 0; k < axes.size(); ++k) p[axes[k]] = cell[k] * spec_.order + local[k];
    return static_cast<int>(lattice_.index(p));
  }

  const BoxSpec& spec_;
  const BoxBlock& block_;
  const Lattice& lattice_;
};

}  // namespace

void validate_box_spec(const BoxSpec& spec) {
  const auto dim = spec.size.size();
  if (dim != 2 && dim != 3) throw std::invalid_argument("box: size needs 2 or 3 numbers, got " + std::to_string(dim));
  if (spec.divisions.size() != dim)
    throw std::invalid_argument("box: divisions needs " + std::to_string(dim) + " numbers like size, got " +
                                std::to_string(spec.divisions.size()));
  for (std::size_t k = 0; k < dim; ++k) {
    if (!(spec.size[k] > 0)) throw std::invalid_argument("box: every size must be positive");
    if (spec.divisions[k] < 1) throw std::invalid_argument("box: every division must be at least 1");
  }
  if (!spec.origin.empty() && spec.origin.size() != dim)
    throw std::invalid_argument("box: the origin needs as many coordinates as the size");
  const int shape_dim = element_info(element_type_for(spec.shape, 1)).dimension;
  if (shape_dim != static_cast<int>(dim))
    throw std::invalid_argument("box: a " + std::to_string(dim) + "D box needs " +
                                (dim == 2 ? "tri or quad" : "tet or hex") + " elements");
  if (spec.order != 1 && spec.order != 2) throw std::invalid_argument("box: order must be 1 or 2");
}


BoxBlockMesh make_box_block(const BoxSpec& spec, const BoxBlock& block, bool lattice_points) {
  validate_box_spec(spec);
  const int dim = static_cast<int>(spec.size.size());
  std::array<long, 3> box_points{1, 1, 1};
  Lattice lattice;
  for (int k = 0; k < dim; ++k) {
    if (block.first[k] < 0 || block.end[k] > spec.divisions[k] || block.first[k] >= block.end[k])
      throw std::invalid_argument("box: a block must hold cells of the box along every axis");
    box_points[k] = static_cast<long>(spec.divisions[k]) * spec.order + 1;
    lattice.origin[k] = static_cast<long>(block.first[k]) * spec.order;
    lattice.points[k] = static_cast<long>(block.end[k] - block.first[k]) * spec.order + 1;
  }
  if (lattice.size() > std::numeric_limits<int>::max()) throw std::invalid_argument("box: too many nodes for 32-bit indices");

  BoxBlockMesh result;
  Mesh& mesh = result.mesh;
  mesh.dimension = dim;
  mesh.source = "box";
  const GridEmitter emitter(spec, block, lattice);
  const ElementType cell_type = element_type_for(spec.shape, spec.order, spec.serendipity);
  std::vector<int> all_axes(dim);
  std::iota(all_axes.begin(), all_axes.end(), 0);
  emitter.emit(all_axes, Point{0, 0, 0}, cell_type, mesh.cells);

  PhysicalGroup region{"box", dim, {}};
  region.elements.resize(mesh.cells.size());
  std::iota(region.elements.begin(), region.elements.end(), std::size_t{0});
  mesh.groups.push_back(std::move(region));

  const char* axis_names[] = {"x", "y", "z"};
  for (int axis = 0; axis < dim; ++axis) {
    std::vector<int> face_axes;
    for (int k = 0; k < dim; ++k)
      if (k != axis) face_axes.push_back(k);
    for (int side = 0; side < 2; ++side) {
      Point fixed{0, 0, 0};
      fixed[axis] = side == 0 ? 0 : box_points[axis] - 1;
      PhysicalGroup face{std::string(axis_names[axis]) + (side == 0 ? "min" : "max"), dim - 1, {}};
      const std::size_t first = mesh.boundary.size();
      // A face the block does not reach stays an empty group: every block names the box's groups.
      if (side == 0 ? block.first[axis] == 0 : block.end[axis] == spec.divisions[axis])
        emitter.emit(face_axes, fixed, facet_type_of(cell_type), mesh.boundary);
      for (std::size_t e = first; e < mesh.boundary.size(); ++e) face.elements.push_back(e);
      mesh.groups.push_back(std::move(face));
    }
  }

  // Keep only the lattice points some element uses (serendipity elements skip face and centre points).
  std::vector<int> compact(lattice.size(), -1);
  for (int n : mesh.cells.node) compact[n] = 0;
  int next = 0;
  for (auto& c : compact)
    if (c == 0) c = next++;
  for (auto* set : {&mesh.cells, &mesh.boundary}) {
    std::vector<int>& nodes = set->node;
#pragma omp parallel for schedule(static)
    for (std::size_t k = 0; k < nodes.size(); ++k) nodes[k] = compact[nodes[k]];
  }
  mesh.coords.assign(3 * static_cast<std::size_t>(next), 0.0);
  if (lattice_points) result.lattice_point.resize(static_cast<std::size_t>(next));
#pragma omp parallel for schedule(static)
  for (long k = lattice.origin[2]; k < lattice.origin[2] + lattice.points[2]; ++k)
    for (long j = lattice.origin[1]; j < lattice.origin[1] + lattice.points[1]; ++j)
      for (long i = lattice.origin[0]; i < lattice.origin[0] + lattice.points[0]; ++i) {
        const int n = compact[lattice.index({i, j, k})];
        if (n < 0) continue;
        if (lattice_points) result.lattice_point[n] = {i, j, k};
        const long p[3] = {i, j, k};
        for (int a = 0; a < dim; ++a)
          mesh.coords[3 * n + a] = (spec.origin.empty() ? 0.0 : spec.origin[a]) +
                                   spec.size[a] * static_cast<double>(p[a]) / static_cast<double>(box_points[a] - 1);
      }
  return result;
}

Mesh make_box_mesh(const BoxSpec& spec) {
  validate_box_spec(spec);  // before the block is sized from its divisions
  BoxBlock whole;
  for (std::size_t k = 0; k < spec.size.size(); ++k) whole.end[k] = spec.divisions[k];
  return make_box_block(spec, whole, false).mesh;
}

}  // namespace fem

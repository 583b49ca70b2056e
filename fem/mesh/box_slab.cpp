#include "fem/mesh/box_slab.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace fem {
namespace {

// Points in [0, count) of one parity, and those of that parity before x.
long of_parity(long count, int parity) { return parity ? count / 2 : (count + 1) / 2; }
long before(long x, int parity) { return parity ? x / 2 : (x + 1) / 2; }

// The whole box's node numbers, plane by plane across `axis`, each plane row by row. Which lattice
// points are nodes depends only on how many of a point's coordinates are odd (serendipity
// elements leave out points with two or more: face and cell centres), so every count below is in
// closed form over the parities.
class PlaneNumbering {
 public:
  PlaneNumbering(const BoxSpec& spec, int axis) : axis_(axis) {
    const int dim = static_cast<int>(spec.size.size());
    for (int k = 0; k < dim; ++k) points_[k] = static_cast<long>(spec.divisions[k]) * spec.order + 1;
    along_ = axis == 0 ? 1 : 0;
    row_ = 3 - axis - along_;
    skips_ = spec.order == 2 && spec.serendipity &&
             (spec.shape == ElementShape::Hexahedron || spec.shape == ElementShape::Quadrilateral);
  }

  std::int64_t plane_start(long q) const {
    std::int64_t n = 0;
    for (int pq = 0; pq < 2; ++pq) n += plane_count(pq) * before(q, pq);
    return n;
  }

  std::int64_t number(const LatticePoint& p) const {
    const int pq = p[axis_] % 2, pr = p[row_] % 2;
    std::int64_t n = plane_start(p[axis_]);
    for (int r = 0; r < 2; ++r) n += row_count(pq, r) * before(p[row_], r);
    for (int a = 0; a < 2; ++a) n += used(a, pr, pq) * before(p[along_], a);
    return n;
  }

  long points(int axis) const { return points_[axis]; }

 private:
  int used(int pa, int pr, int pq) const { return skips_ && pa + pr + pq >= 2 ? 0 : 1; }
  std::int64_t row_count(int pq, int pr) const {
    std::int64_t n = 0;
    for (int a = 0; a < 2; ++a) n += used(a, pr, pq) * of_parity(points_[along_], a);
    return n;
  }
  std::int64_t plane_count(int pq) const {
    std::int64_t n = 0;
    for (int r = 0; r < 2; ++r) n += row_count(pq, r) * of_parity(points_[row_], r);
    return n;
  }

  std::array<long, 3> points_{1, 1, 1};
  int axis_ = 0, along_ = 1, row_ = 2;
  bool skips_ = false;
};

// The axis with the most cells (the last of equals).
int slab_axis(const BoxSpec& spec) {
  int axis = 0;
  for (int k = 1; k < static_cast<int>(spec.divisions.size()); ++k)
    if (spec.divisions[k] >= spec.divisions[axis]) axis = k;
  return axis;
}

}  // namespace

BoxSlab make_box_slab(const BoxSpec& spec, int rank, int ranks) {
  validate_box_spec(spec);
  BoxSlab slab;
  slab.axis = slab_axis(spec);
  const long layers = spec.divisions[slab.axis];
  if (layers < ranks)
    throw std::invalid_argument("box: " + std::to_string(ranks) + " ranks need at least as many cell layers across the box, " +
                                "and its divisions give " + std::to_string(layers) + " along " + "xyz"[slab.axis]);
  const long first_layer = layers * rank / ranks, end_layer = layers * (rank + 1) / ranks;
  BoxBlock block;
  for (std::size_t k = 0; k < spec.divisions.size(); ++k) block.end[k] = spec.divisions[k];
  block.first[slab.axis] = static_cast<int>(std::max(first_layer - 1, 0L));  // the ghost layer
  block.end[slab.axis] = static_cast<int>(end_layer);
  BoxBlockMesh part = make_box_block(spec, block);
  slab.mesh = std::move(part.mesh);

  const PlaneNumbering numbering(spec, slab.axis);
  const long own_from = first_layer * spec.order;
  const long own_to = rank == ranks - 1 ? numbering.points(slab.axis) : end_layer * spec.order;
  const std::size_t nodes = part.lattice_point.size();
  slab.global_node.resize(nodes);
  slab.owned.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) {
    const long q = part.lattice_point[n][slab.axis];
    slab.global_node[n] = numbering.number(part.lattice_point[n]);
    slab.owned[n] = q >= own_from && q < own_to;
  }
  slab.first_node = numbering.plane_start(own_from);
  slab.owned_nodes = numbering.plane_start(own_to) - slab.first_node;
  slab.box_nodes = numbering.plane_start(numbering.points(slab.axis));

  // A ghost cell has a node before the slab's first plane; the slab's cells have none.
  for (std::size_t e = 0; e < slab.mesh.cells.size(); ++e) {
    const auto cell = slab.mesh.cells.nodes_of(e);
    if (std::all_of(cell.begin(), cell.end(), [&](int n) { return part.lattice_point[n][slab.axis] >= own_from; }))
      slab.own_cells.push_back(e);
  }
  std::int64_t box_cells = 1, block_cells = 1;
  for (std::size_t k = 0; k < spec.divisions.size(); ++k) {
    box_cells *= spec.divisions[k];
    block_cells *= block.end[k] - block.first[k];
  }
  slab.box_cells = box_cells * static_cast<std::int64_t>(slab.mesh.cells.size()) / block_cells;  // simplices per cell
  return slab;
}

}  // namespace fem

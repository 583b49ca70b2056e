#include "fem/mesh/box_part.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace fem {
namespace {

// Points of one parity in [0, x).
long before(long x, int parity) { return parity ? x / 2 : (x + 1) / 2; }

// Node numbers within one box of lattice points [lo, hi) per axis, x fastest, then y, then z.
// Which lattice points are nodes depends only on how many of a point's coordinates are odd
// (serendipity elements leave out points with two or more: face and cell centres), so every count
// below is in closed form over the parities.
class LatticeNumbering {
 public:
  LatticeNumbering(LatticePoint lo, LatticePoint hi, bool skips) : lo_(lo), hi_(hi), skips_(skips) {}

  std::int64_t count() const { return before_plane(hi_[2]); }

  // p's number among the box's nodes; p must be a node inside the box.
  std::int64_t number(const LatticePoint& p) const {
    const int pz = static_cast<int>(p[2] % 2), py = static_cast<int>(p[1] % 2);
    std::int64_t n = before_plane(p[2]);
    for (int y = 0; y < 2; ++y) n += row_count(y, pz) * in_range(1, p[1], y);
    for (int x = 0; x < 2; ++x) n += used(x, py, pz) * in_range(0, p[0], x);
    return n;
  }

 private:
  int used(int px, int py, int pz) const { return skips_ && px + py + pz >= 2 ? 0 : 1; }
  // Points of one parity in [lo, x) along an axis.
  std::int64_t in_range(int axis, long x, int parity) const { return before(x, parity) - before(lo_[axis], parity); }
  std::int64_t row_count(int py, int pz) const {
    std::int64_t n = 0;
    for (int x = 0; x < 2; ++x) n += used(x, py, pz) * in_range(0, hi_[0], x);
    return n;
  }
  std::int64_t before_plane(long z) const {
    std::int64_t n = 0;
    for (int pz = 0; pz < 2; ++pz) {
      std::int64_t plane = 0;
      for (int y = 0; y < 2; ++y) plane += row_count(y, pz) * in_range(1, hi_[1], y);
      n += plane * in_range(2, z, pz);
    }
    return n;
  }

  LatticePoint lo_, hi_;
  bool skips_;
};

// Ranks per axis: the factorisation of `ranks` whose cuts cross the fewest cell faces, no axis
// cut into more pieces than it has cell layers (on ties, the fewest pieces along x, then y).
std::array<int, 3> rank_grid(const BoxSpec& spec, int ranks) {
  const int dim = static_cast<int>(spec.divisions.size());
  std::array<long, 3> layers{1, 1, 1};
  for (int k = 0; k < dim; ++k) layers[k] = spec.divisions[k];
  std::array<int, 3> best{0, 0, 0};
  double best_cut = std::numeric_limits<double>::infinity();
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py) continue;
      const std::array<int, 3> grid{px, py, ranks / px / py};
      bool fits = true;
      double cut = 0;
      for (int k = 0; k < 3; ++k) {
        fits = fits && grid[k] <= layers[k];
        cut += static_cast<double>(grid[k] - 1) * static_cast<double>(layers[0] * layers[1] * layers[2] / layers[k]);
      }
      if (fits && cut < best_cut) best_cut = cut, best = grid;
    }
  }
  if (best[0] == 0) {
    std::string divisions;
    for (int k = 0; k < dim; ++k) divisions += (k ? " x " : "") + std::to_string(spec.divisions[k]);
    throw std::invalid_argument("box: " + std::to_string(ranks) + " ranks cannot each take a block of the box's " +
                                divisions + " cells (no axis may have more ranks than cell layers)");
  }
  return best;
}

// One axis cut into `pieces`: piece c holds cell layers [first(c), first(c + 1)) and owns the
// lattice points from first(c) * order up to the next piece's first point (the last piece to the
// box's last point).
struct AxisCut {
  long layers, pieces, order, points;
  long first(long c) const { return layers * c / pieces; }
  long own_from(long c) const { return first(c) * order; }
  long own_to(long c) const { return c + 1 == pieces ? points : first(c + 1) * order; }
  long owner(long q) const {  // the piece owning lattice coordinate q
    long c = std::min(pieces - 1, q * pieces / std::max(points - 1, 1L));
    while (c > 0 && q < own_from(c)) --c;
    while (c + 1 < pieces && q >= own_to(c)) ++c;
    return c;
  }
};

// The whole box's node numbers, rank by rank: each rank's own points numbered x fastest within
// its block, the blocks in rank order.
class BlockNumbering {
 public:
  BlockNumbering(const BoxSpec& spec, std::array<int, 3> grid) : grid_(grid) {
    skips_ = spec.order == 2 && spec.serendipity &&
             (spec.shape == ElementShape::Hexahedron || spec.shape == ElementShape::Quadrilateral);
    for (int k = 0; k < 3; ++k) {
      const long layers = k < static_cast<int>(spec.divisions.size()) ? spec.divisions[k] : 0;
      cuts_[k] = {std::max(layers, 1L), grid[k], layers ? spec.order : 1L, layers ? layers * spec.order + 1 : 1L};
    }
    const int ranks = grid[0] * grid[1] * grid[2];
    start_.assign(static_cast<std::size_t>(ranks) + 1, 0);
    for (int r = 0; r < ranks; ++r) start_[r + 1] = start_[r] + block(r).count();
  }

  std::array<long, 3> coordinates(int rank) const {
    return {rank % grid_[0], rank / grid_[0] % grid_[1], rank / grid_[0] / grid_[1]};
  }
  const AxisCut& cut(int axis) const { return cuts_[axis]; }
  std::int64_t first_node(int rank) const { return start_[rank]; }
  std::int64_t box_nodes() const { return start_.back(); }

  LatticeNumbering block(int rank) const {
    const auto c = coordinates(rank);
    LatticePoint lo, hi;
    for (int k = 0; k < 3; ++k) lo[k] = cuts_[k].own_from(c[k]), hi[k] = cuts_[k].own_to(c[k]);
    return {lo, hi, skips_};
  }

  std::int64_t number(const LatticePoint& p) const {
    const int rank = static_cast<int>(cuts_[0].owner(p[0]) + grid_[0] * (cuts_[1].owner(p[1]) + grid_[1] * cuts_[2].owner(p[2])));
    return start_[rank] + block(rank).number(p);
  }

 private:
  std::array<int, 3> grid_;
  std::array<AxisCut, 3> cuts_;
  std::vector<std::int64_t> start_;  // per rank: its first node's number (ranks + 1 scalars)
  bool skips_ = false;
};

}  // namespace

BoxPart make_box_part(const BoxSpec& spec, int rank, int ranks) {
  validate_box_spec(spec);
  BoxPart part;
  part.grid = rank_grid(spec, ranks);
  const BlockNumbering numbering(spec, part.grid);
  const auto c = numbering.coordinates(rank);
  BoxBlock block;  // the rank's cells plus the layer before them along each cut axis (its ghosts)
  LatticePoint own_from{0, 0, 0};
  for (std::size_t k = 0; k < spec.divisions.size(); ++k) {
    const AxisCut& cut = numbering.cut(static_cast<int>(k));
    block.first[k] = static_cast<int>(std::max(cut.first(c[k]) - 1, 0L));
    block.end[k] = static_cast<int>(cut.first(c[k] + 1));
    own_from[k] = cut.own_from(c[k]);
  }
  BoxBlockMesh made = make_box_block(spec, block);
  part.mesh = std::move(made.mesh);

  const LatticeNumbering mine = numbering.block(rank);
  const std::size_t nodes = made.lattice_point.size();
  part.global_node.resize(nodes);
  part.owned.resize(nodes);
  part.first_node = numbering.first_node(rank);
  part.owned_nodes = mine.count();
  for (std::size_t n = 0; n < nodes; ++n) {
    part.global_node[n] = numbering.number(made.lattice_point[n]);
    part.owned[n] = part.global_node[n] >= part.first_node && part.global_node[n] < part.first_node + part.owned_nodes;
  }
  part.box_nodes = numbering.box_nodes();

  // A ghost cell has a node before the block's first point along some axis; the block's cells have none.
  for (std::size_t e = 0; e < part.mesh.cells.size(); ++e) {
    const auto cell = part.mesh.cells.nodes_of(e);
    if (std::all_of(cell.begin(), cell.end(), [&](int n) {
          const LatticePoint& p = made.lattice_point[n];
          return p[0] >= own_from[0] && p[1] >= own_from[1] && p[2] >= own_from[2];
        }))
      part.own_cells.push_back(e);
  }
  std::int64_t box_cells = 1, block_cells = 1;
  for (std::size_t k = 0; k < spec.divisions.size(); ++k) {
    box_cells *= spec.divisions[k];
    block_cells *= block.end[k] - block.first[k];
  }
  part.box_cells = box_cells * static_cast<std::int64_t>(part.mesh.cells.size()) / block_cells;  // simplices per cell
  return part;
}

std::string block_grid_name(const BoxPart& part) {
  const int dim = part.mesh.dimension;
  std::string name;
  for (int k = 0; k < dim; ++k) name += (k ? " x " : "") + std::to_string(part.grid[k]);
  return name + " blocks";
}

}  // namespace fem

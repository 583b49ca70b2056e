#pragma once
// One MPI rank's part of the built-in box, made by that rank alone: no rank holds the whole mesh.
// The box is cut into a grid of blocks of whole cells, one a rank, the grid chosen so that the cuts
// cross the fewest cell faces (slabs only where the rank count allows nothing squarer): ranks that
// share less surface exchange less and build coarser AMG levels with fewer ties between them. A
// rank makes its block plus the layer of cells just before it along each cut axis (its ghost
// layer), which holds every cell around the nodes it owns, so that its nodal averages there are
// complete. A rank owns the lattice points from its block's first ones up to the next block's (the
// last along an axis to the box's end); nodes are numbered rank by rank, each rank's points x
// fastest, so each rank's own nodes are one contiguous range and every rank computes any node's
// number from its lattice point alone, with no talk between ranks.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "fem/mesh/box_mesh.hpp"

namespace fem {

struct BoxPart {
  Mesh mesh;                              // the block's cells and its ghost layer's, in the box's cell order
  std::vector<std::size_t> own_cells;     // the block's own cells among them: the ones this rank assembles and writes
  std::vector<std::int64_t> global_node;  // per node of `mesh`: its number in the whole box
  std::vector<char> owned;                // per node of `mesh`: 1 where this rank owns it
  std::int64_t first_node = 0;            // this rank's nodes are global_node first_node .. first_node + owned_nodes - 1
  std::int64_t owned_nodes = 0;
  std::int64_t box_nodes = 0, box_cells = 0;  // of the whole box
  std::array<int, 3> grid{1, 1, 1};       // ranks along x, y and z
};

// Rank `rank` of `ranks`. Throws std::invalid_argument (naming the box's divisions) when no grid
// of `ranks` blocks fits the box's cell layers.
BoxPart make_box_part(const BoxSpec& spec, int rank, int ranks);

// "4 x 2 x 2 blocks" (a 2D box's grid by its two axes).
std::string block_grid_name(const BoxPart& part);

}  // namespace fem

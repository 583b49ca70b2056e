#pragma once
// One MPI rank's part of the built-in box, made by that rank alone: no rank holds the whole mesh.
// The box is cut into slabs of whole cell layers across the axis with the most cells; a rank
// makes its slab plus the layer of cells just before it (its ghost layer), which holds every cell
// around the nodes it owns, so that its nodal averages there are complete. A rank owns the
// lattice planes its slab starts on (the last rank the box's last plane too); nodes are numbered
// plane by plane across the box, so each rank's own nodes are one contiguous block and every rank
// computes any node's number from its lattice point alone, with no talk between ranks.
#include <cstdint>
#include <vector>

#include "fem/mesh/box_mesh.hpp"

namespace fem {

struct BoxSlab {
  Mesh mesh;                              // the ghost layer's cells and the slab's, in the box's cell order
  std::vector<std::size_t> own_cells;     // the slab's cells among them: the ones this rank assembles and writes
  std::vector<std::int64_t> global_node;  // per node of `mesh`: its number in the whole box
  std::vector<char> owned;                // per node of `mesh`: 1 where this rank owns it
  std::int64_t first_node = 0;            // this rank's nodes are global_node first_node .. first_node + owned_nodes - 1
  std::int64_t owned_nodes = 0;
  std::int64_t box_nodes = 0, box_cells = 0;  // of the whole box
  int axis = 0;                           // the axis across which the slabs are cut
};

// Rank `rank` of `ranks`. Throws std::invalid_argument (naming the box's divisions) when the box
// has fewer cell layers across its longest axis than there are ranks.
BoxSlab make_box_slab(const BoxSpec& spec, int rank, int ranks);

}  // namespace fem

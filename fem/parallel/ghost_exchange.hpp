#pragma once
// Values at a rank's ghost nodes (the nodes of its part that other ranks own) from their owners,
// through PETSc's ghosted vectors (VecGhost): each owner's values are scattered to the ranks that
// hold the node, nothing is gathered anywhere.
#include <petscvec.h>

#include <cstdint>
#include <span>
#include <vector>

namespace fem {

class GhostExchange {
 public:
  // `position`: per local node its place in the ghosted vector's local form: the `owned_nodes`
  // owned nodes first, in global order, then the ghosts in the order of `ghost_nodes` (their
  // global node numbers).
  GhostExchange(std::int64_t owned_nodes, std::vector<PetscInt> ghost_nodes, std::vector<std::int32_t> position);

  std::int64_t owned_nodes() const { return owned_nodes_; }
  const std::vector<std::int32_t>& position() const { return position_; }

  // Collective. `values`: `width` values per position; the ghosts' values are replaced by their
  // owners'.
  void update_by_position(std::span<double> values, int width) const;

  // Collective. `field`: `width` values per local node; the ghosts' values are replaced by their
  // owners'. An empty field (one the physics lacks) is left alone, on every rank alike.
  void complete(std::span<double> field, int width) const;

 private:
  std::int64_t owned_nodes_ = 0;
  std::vector<PetscInt> ghost_nodes_;
  std::vector<std::int32_t> position_;
};

}  // namespace fem

#pragma once
// Equation numbers: all dofs of a node together, nodes in the renumbered order, so the
// matrix bandwidth is about dofs-per-node times the node bandwidth.
#include <cstdint>
#include <string>
#include <vector>

namespace fem {

struct DofMap {
  int dofs_per_node = 1;
  std::vector<std::int32_t> node_rank;     // new position of each mesh node
  std::vector<std::int32_t> node_at_rank;  // inverse: mesh node at each position

  std::int64_t num_dofs() const { return static_cast<std::int64_t>(node_rank.size()) * dofs_per_node; }
  std::int64_t dof(int node, int component) const {
    return static_cast<std::int64_t>(node_rank[node]) * dofs_per_node + component;
  }
  // "node 41 (component y)": how a failing equation is named to the user (1-based node number as in Gmsh).
  std::string describe(std::int64_t equation) const;
};

// node_rank empty: the identity (mesh order).
DofMap make_dof_map(std::size_t num_nodes, int dofs_per_node, std::vector<std::int32_t> node_rank = {});

}  // namespace fem

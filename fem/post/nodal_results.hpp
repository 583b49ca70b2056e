#pragma once
// Results at the nodes, ready to write: the primary field, gradients recovered from the
// integration points, and reactions.
#include <array>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/nodal_array.hpp"

namespace fem {

struct NodalResults {
  // Each array is (num_nodes x components), row-major; empty when the physics has no such field.
  NodalArray displacement;      // 3 (z = 0 in 2D)
  NodalArray strain;            // 6: xx yy zz xy yz xz (engineering shear)
  NodalArray stress;            // 6: xx yy zz xy yz xz
  NodalArray von_mises;         // 1
  NodalArray principal_stress;  // 3: largest first
  NodalArray tresca;            // 1: largest minus smallest principal stress
  NodalArray principal_directions;  // 9: the three unit directions; filled only when output.fields names them
  NodalArray temperature;       // 1
  NodalArray heat_flux;         // 3
  NodalArray reaction;          // elasticity 3 (force), heat 1 (heat flow); zero off the constraints
  std::map<std::string, std::array<double, 3>> group_reactions;  // per Dirichlet group: summed reaction
  std::array<double, 3> applied_load{};  // total external load (force or heat input)
  std::array<double, 3> body_load{};     // its part from the cells: gravity's force, the sources' heat
};

// Where the cells' sweep (strain and stress, or heat flux, at the nodes) runs: on the host's
// threads, or on the CUDA device where the build, the machine and the problem allow
// (device_recovery.hpp; the host otherwise).
enum class SweepOn { Host, CudaWherePossible };

// `solution` is in equation order (the DofMap's numbering). `cells`: only these cells (one MPI
// rank's part; empty: all) and the load facets they own (facet_owner_cells): gradients are then
// averaged over these cells alone, and reactions hold these cells' share (the shares add up).
NodalResults recover_results(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                             std::span<const double> solution, std::span<const std::size_t> cells = {},
                             SweepOn sweep = SweepOn::Host);

// Per Dirichlet group: its constrained components of `reaction` (NodalResults::reaction) summed over its nodes.
std::map<std::string, std::array<double, 3>> group_reactions(const Problem& problem, std::span<const double> reaction);

}  // namespace fem

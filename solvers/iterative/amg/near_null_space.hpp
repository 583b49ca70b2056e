#pragma once
// The near-null space AMG must reproduce on every level: the vectors the operator barely
// changes away from the boundary. Elasticity: the rigid-body modes (3 translations and 3
// rotations in 3D, 2 and 1 in 2D) from the nodal coordinates; heat (one dof per node): the
// constant.
#include <cstdint>
#include <vector>

#include "kernels/block_matrix.hpp"
#include "solvers/linear_system.hpp"

namespace fem::amg {

// `vectors` near-null vectors stored row by row: entry (i, v) at values[i * vectors + v].
struct NearNullSpace {
  int vectors = 1;
  std::vector<double, kernels::UninitializedAllocator<double>> values;  // filled by the threads that use it
  bool rigid_body_modes = false;  // false: the constants of each component
};

// Rigid-body modes when the layout has coordinates and one dof per space dimension; otherwise
// the constant of each of the dofs_per_node components. Rotations are taken about the centroid
// so that they stay well separated from the translations on small aggregates.
NearNullSpace near_null_space(const NodeLayout& nodes, std::int64_t equations);

}  // namespace fem::amg

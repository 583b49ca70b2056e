#pragma once
// The tentative prolongator T of smoothed aggregation: on each aggregate, the near-null vectors
// restricted to its dofs are factored B_a = Q_a R_a (a small QR); Q_a becomes T's block column of
// the aggregate and R_a the coarse near-null vectors, so that T B_coarse = B exactly.
#include <cstdint>
#include <vector>

#include "solvers/iterative/amg/aggregation.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "solvers/iterative/amg/near_null_space.hpp"

namespace fem::amg {

struct TentativeProlongator {
  BlockSparse t;          // (nodes x dofs_per_node) x (aggregates x vectors), one block per aggregated node
  NearNullSpace coarse;   // the R factors: `vectors` coarse dofs per aggregate
};

// Equations coupled to no other (Dirichlet rows cleared to their diagonal, or coarse dofs an
// aggregate could not support): the near-null space is zero there, so they get no coarse
// representation and are left to the smoother.
std::vector<char> decoupled_equations(const BlockSparse& a);

// `decoupled` marks equations whose near-null entries are taken as zero. A near-null vector
// that is (numerically) a combination of the previous ones on an aggregate gives a zero column:
// its coarse dof is decoupled, and the hierarchy gives it a unit diagonal.
TentativeProlongator tentative_prolongator(const Aggregates& aggregates, const NearNullSpace& b, int dofs_per_node,
                                           const std::vector<char>& decoupled);

}  // namespace fem::amg

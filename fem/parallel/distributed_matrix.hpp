#pragma once
// The distributed K and f of both MPI routes (the whole mesh split by METIS, the box's blocks):
// PETSc's matrix preallocated exactly from the node graph, so that assembly never allocates.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <petscsys.h>

#include "fem/renumber/node_graph.hpp"
#include "solvers/petsc/petsc_handle.hpp"

namespace fem {

// Per owned equation: its row's nonzeros in this rank's columns and in the others'.
struct RowCounts {
  std::vector<PetscInt> diagonal, off_diagonal;
};

// A row of node n holds the dofs of n and of its graph neighbours, split into this rank's columns
// (`owns(neighbour)`) and the others'. `node_of(k)` is the k-th owned node's index in `graph`.
template <class NodeOf, class Owns>
RowCounts count_rows(std::int64_t owned_nodes, int d, const renumber::NodeGraph& graph, NodeOf node_of, Owns owns) {
  RowCounts counts;
  counts.diagonal.resize(static_cast<std::size_t>(owned_nodes * d));
  counts.off_diagonal.resize(counts.diagonal.size());
  for (std::int64_t k = 0; k < owned_nodes; ++k) {
    PetscInt mine = 1, others = 0;
    for (int neighbour : graph.neighbours_of(node_of(k))) (owns(neighbour) ? mine : others) += 1;
    std::fill_n(counts.diagonal.begin() + k * d, d, mine * d);
    std::fill_n(counts.off_diagonal.begin() + k * d, d, others * d);
  }
  return counts;
}

// Makes `matrix` (AIJ, block size d, exactly `counts` preallocated: a nonzero beyond them is an
// error) and `rhs` of `global` equations, this rank's the counts' rows.
void make_preallocated_system(petsc::OwnedMat& matrix, petsc::OwnedVec& rhs, std::int64_t global, int d,
                              const RowCounts& counts);

}  // namespace fem

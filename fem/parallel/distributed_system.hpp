#pragma once
// A case's equations spread over the MPI ranks for PETSc (fem under mpirun). Every rank holds the
// whole mesh (built from the same case file); the nodes are split with METIS and renumbered so
// that each rank owns one contiguous block of equations; each rank computes only its own cells'
// element matrices (the same kernels and element-by-element seam as the frontal method) into a
// distributed matrix preallocated exactly from the node graph, with the Dirichlet conditions
// applied symmetrically element by element, and solves it with the PETSc solvers.
#include <cstdint>
#include <span>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/post/nodal_results.hpp"
#include "fem/physics/problem.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/permutation.hpp"
#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_ksp.hpp"

namespace fem {

class DistributedSystem {
 public:
  // Collective over PETSC_COMM_WORLD (PETSc must be initialised). `case_order` is the case's
  // renumbering: it orders the nodes within each rank. Keeps references to problem and graph.
  DistributedSystem(const Problem& problem, const renumber::NodeGraph& graph, const renumber::Permutation& case_order);

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // The nodes grouped by rank (rank 0's first), each rank's in the case's order.
  const renumber::Permutation& permutation() const { return permutation_; }
  std::vector<std::int64_t> equations_per_rank() const;
  // The cells this rank assembles, and the ones it post-processes: every cell with a node this
  // rank owns, so that the results at its own nodes are complete.
  const std::vector<std::size_t>& own_cells() const { return own_cells_; }
  const std::vector<std::size_t>& post_cells() const { return post_cells_; }
  bool owns_node(int node) const { return node_owner_[node] == rank_; }

  // Collective: this rank's cells and load facets into the distributed K and f. A bad element
  // on any rank (inverted) ends it on every rank with that element named.
  void assemble(const DofMap& dofs, const Constraints& constraints);

  // Collective: solves with the PETSc solver `method` and gathers the whole solution, in the
  // DofMap's equation order, into `solution` on every rank. `residual`: ||f - K u|| / ||f||.
  SolveReport solve(petsc::Method method, const SolverOptions& options, std::span<double> solution, double& residual);

  // Collective: every rank's results at its own nodes put together on every rank, and the
  // reactions per group summed from them.
  void combine(NodalResults& results) const;

 private:
  const Problem& problem_;
  int rank_ = 0, ranks_ = 1;
  std::vector<int> node_owner_;            // rank of each mesh node
  renumber::Permutation permutation_;
  std::int64_t first_node_ = 0, owned_nodes_ = 0;  // this rank's block in the new numbering
  std::vector<std::size_t> own_cells_, post_cells_;
  const renumber::NodeGraph& graph_;
  const DofMap* dofs_ = nullptr;
  petsc::OwnedMat matrix_;
  petsc::OwnedVec rhs_;
};

}  // namespace fem

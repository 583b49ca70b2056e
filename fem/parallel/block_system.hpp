#pragma once
// A case on the built-in box spread over the MPI ranks with no rank holding the whole mesh: each
// rank has its part (fem/mesh/box_part.hpp) with the problem, dof map and constraints on it;
// assembles its part's cells straight into PETSc's distributed matrix, preallocated exactly from
// the part's node graph (complete around the nodes it owns, thanks to the ghost layer), with the
// Dirichlet conditions applied element by element; and takes the solution's ghost values from
// their owners. Collective: every rank makes the same calls.
#include <cstdint>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/assembly/element_system.hpp"
#include "fem/mesh/box_part.hpp"
#include "fem/parallel/ghost_exchange.hpp"
#include "fem/physics/problem.hpp"
#include "fem/post/load_balance.hpp"
#include "fem/renumber/node_graph.hpp"
#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_ksp.hpp"

namespace fem {

// The matrix's measures over this rank's rows, in the box's equation numbers.
struct RowFigures {
  std::int64_t nnz = 0;        // both triangles
  std::int64_t bandwidth = 0;  // max |i - j| over the nonzeros
  std::int64_t profile = 0;    // sum over the rows of i minus the row's first column
};

class BlockSystem {
 public:
  // `problem` is built on part.mesh; keeps references to both. Throws CaseError as
  // collect_constraints does.
  BlockSystem(const Problem& problem, const BoxPart& part);

  // In the part: the owned nodes first (in the box's order), then the ghosts.
  const DofMap& dofs() const { return dofs_; }
  const Constraints& constraints() const { return constraints_; }
  const GhostExchange& ghosts() const { return ghosts_; }
  std::int64_t equations() const { return part_.owned_nodes * dofs_.dofs_per_node; }
  RowFigures row_figures() const;

  // Collective: the part's cells and their load facets into the distributed K and f. Throws
  // CaseError naming an inverted element.
  void assemble();
  // After assemble(), elasticity: this rank's share of the applied loads' resultant (moments
  // about the origin): its cells' and load facets' nodal loads before the constraints, each load
  // counted by one rank alone.
  const Resultant& applied_share() const { return applied_; }

  // Collective: solves with PETSc's `method` into `solution` (this part's equations, ghosts
  // included, in dofs()' order); `residual`: ||f - K u|| / ||f|| over the whole system.
  SolveReport solve(petsc::Method method, const SolverOptions& options, std::vector<double>& solution, double& residual);

 private:
  void preallocate();
  void add_applied(const ElementContribution& e);

  const Problem& problem_;
  const BoxPart& part_;
  renumber::NodeGraph graph_;
  GhostExchange ghosts_;
  DofMap dofs_;
  Constraints constraints_;
  std::vector<PetscInt> global_equation_;  // per equation of dofs()
  petsc::OwnedMat matrix_;
  petsc::OwnedVec rhs_;
  Resultant applied_;
};

}  // namespace fem

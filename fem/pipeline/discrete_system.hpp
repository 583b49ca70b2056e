#pragma once
// The equations of a case under one node numbering: dof map, constraints and, built on first
// need, the assembled matrix (most solvers) or the element-by-element system (the frontal
// method). Several solvers can then be handed the very same system, assembled once.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "fem/pipeline/node_ordering.hpp"
#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/assembly/element_system.hpp"
#include "fem/physics/problem.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/progress_meter.hpp"

namespace fem {

class DiscreteSystem {
 public:
  // Keeps references to all three: they must outlive the system.
  DiscreteSystem(const Problem& problem, const renumber::NodeGraph& graph, const NodeOrdering& ordering);

  const DofMap& dofs() const { return dofs_; }
  const Constraints& constraints() const { return constraints_; }
  const NodeOrdering& ordering() const { return ordering_; }
  const renumber::NodeGraph& graph() const { return graph_; }
  std::int64_t nnz() const { return nnz_; }  // of the dof matrix's pattern, both triangles

  // Builds what a solver of this kind takes, unless already built; returns the seconds spent.
  // Throws CaseError naming the mesh for an inverted element. `progress` (none when null) hears
  // the elements assembled.
  double prepare(bool by_elements, ProgressMeter* progress = nullptr);

  // Assemble K on the CUDA device where the build, the machine and the problem allow
  // (assemble_on_cuda), on the host otherwise: for solvers that run there.
  void assemble_on_cuda_when_possible(bool yes) { on_cuda_ = yes; }
  // Assemble K in node blocks alone, no CSR, for a solver that takes them (takes_node_blocks()).
  void assemble_in_node_blocks(bool yes) { in_node_blocks_ = yes; }
  // Whether prepare() assembled K on the CUDA device.
  bool assembled_on_cuda() const { return assembled_on_cuda_; }

  // Solves with `solver` into `solution` (size dofs().num_dofs(), the start value for iterative
  // solvers) after prepare(). A SolveFailure comes back with its equation named as node and
  // component; an inverted element as a CaseError.
  SolveReport solve(LinearSolver& solver, std::span<double> solution) const;

  // Solves K U = B for `count` right-hand sides (one after another in `rhs`, as right_hand_side
  // gives them) into `solutions` after prepare(false): `solver` prepares K once
  // (LinearSolver::prepare). The report holds the preparation's time, memory and figures and the
  // solve time of all of them; failures come back as solve() gives them.
  SolveReport solve(LinearSolver& solver, std::span<const double> rhs, std::span<double> solutions, int count) const;

  // The right-hand side of the assembled K for this system's loads plus `own`'s (a problem on the
  // same mesh holding only extra loads, no Dirichlet condition) after prepare(false): f with
  // own's loads added on the free equations; the constrained ones keep their prescribed values.
  std::vector<double> right_hand_side(const Problem& own) const;

  // Where the equations sit (for solvers that build a near-null space), in this numbering.
  NodeLayout nodes() const {
    return {dofs_.dofs_per_node, problem_.mesh->dimension, coordinates_in_equation_order_};
  }

  // The assembled K and f (constraints applied, equations in this numbering) after prepare(false),
  // K in CSR (made from the node blocks on first need where the device wrote those alone).
  const AssembledSystemData& assembled() const;

  // ||K u - f|| / ||f|| of the system that kind of solver was given: recomputed here, the same
  // way whatever solver produced u.
  double relative_residual(bool by_elements, std::span<const double> solution) const;
  // ||K u - rhs|| / ||rhs|| with the assembled K, after prepare(false).
  double relative_residual(std::span<const double> rhs, std::span<const double> solution) const;

  // The solution with equations in mesh order (node * dofs_per_node + component), so that
  // solutions under different numberings can be compared entry by entry.
  std::vector<double> in_mesh_order(std::span<const double> solution) const;

 private:
  // K as solve() hands it over: CSR, or node blocks (with the device's copy where it made them).
  SystemMatrix system_matrix() const;
  // Whether K's values are on the device alone (the node blocks it assembled, not copied back).
  bool values_on_device_alone() const;
  // K's node blocks' values copied back from the device, where they are there alone.
  void fetch_values() const;
  // Runs a solve, naming a failing equation as node and component and an inverted element as the mesh's fault.
  template <class Solve>
  SolveReport translating_failures(Solve&& solve) const;

  const Problem& problem_;
  const renumber::NodeGraph& graph_;
  const NodeOrdering& ordering_;
  DofMap dofs_;
  Constraints constraints_;
  std::int64_t nnz_ = 0;
  bool assembled_ = false, element_system_built_ = false, on_cuda_ = false, assembled_on_cuda_ = false;
  bool in_node_blocks_ = false;
  // K and f; K in node blocks alone (assembled_system_.blocks) where the device wrote them (their
  // values left there until something on the host reads them), with the CSR copy made only when
  // assembled() is asked for (the matrix export).
  mutable AssembledSystemData assembled_system_;
  std::vector<double> coordinates_in_equation_order_;  // 3 per node, in the renumbered node order
  ElementSystemData element_system_;
};

}  // namespace fem

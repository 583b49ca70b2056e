#include "fem/parallel/distributed_system.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>

#include "fem/assembly/element_system.hpp"
#include "fem/case/case.hpp"
#include "fem/parallel/collective.hpp"
#include "fem/parallel/distributed_matrix.hpp"
#include "fem/parallel/element_constraints.hpp"
#include "fem/parallel/node_partition.hpp"
#include "fem/physics/element_matrices.hpp"
#include "solvers/petsc/petsc_session.hpp"

namespace fem {
namespace {

using petsc::check;

// Every rank meshes the case itself; everything after relies on their meshes being the same.
void require_same_mesh(const Mesh& mesh) {
  double fingerprint[3] = {static_cast<double>(mesh.num_nodes()), static_cast<double>(mesh.cells.node.size()), 0.0};
  for (std::size_t i = 0; i < mesh.coords.size(); ++i) fingerprint[2] += mesh.coords[i] * static_cast<double>(i % 7 + 1);
  double lowest[3], highest[3];
  MPI_Allreduce(fingerprint, lowest, 3, MPI_DOUBLE, MPI_MIN, PETSC_COMM_WORLD);
  MPI_Allreduce(fingerprint, highest, 3, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD);
  if (lowest[0] != highest[0] || lowest[1] != highest[1] || lowest[2] != highest[2])
    throw CaseError(mesh.source + ": the MPI ranks built different meshes from it (a mesher that is not deterministic?)");
}

// The rank that owns most of a cell's nodes (the lowest such rank on a tie) assembles it.
int cell_owner(std::span<const int> nodes, const std::vector<int>& node_owner, int ranks) {
  std::vector<int> count(static_cast<std::size_t>(ranks), 0);
  for (int n : nodes) ++count[node_owner[n]];
  return static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
}

}  // namespace

DistributedSystem::DistributedSystem(const Problem& problem, const renumber::NodeGraph& graph,
                                     const renumber::Permutation& case_order)
    : problem_(problem), graph_(graph) {
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank_);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks_);
  const Mesh& mesh = *problem.mesh;
  require_same_mesh(mesh);
  const int nodes = graph.num_nodes();
  // METIS on rank 0 only, so that every rank surely has the same partition.
  node_owner_.assign(static_cast<std::size_t>(nodes), 0);
  collectively(PETSC_COMM_WORLD, [&] {
    if (rank_ == 0) node_owner_ = partition_nodes(graph, ranks_);
  });
  MPI_Bcast(node_owner_.data(), nodes, MPI_INT, 0, PETSC_COMM_WORLD);

  // Nodes grouped by rank, in the case's order within each: rank 0's, since the case's order
  // may differ between ranks (renumber: auto tries methods within a time budget).
  std::vector<int> old_of_new(static_cast<std::size_t>(nodes));
  std::iota(old_of_new.begin(), old_of_new.end(), 0);
  const auto& case_rank = case_order.new_of_old;
  std::sort(old_of_new.begin(), old_of_new.end(), [&](int a, int b) {
    return node_owner_[a] != node_owner_[b] ? node_owner_[a] < node_owner_[b] : case_rank[a] < case_rank[b];
  });
  MPI_Bcast(old_of_new.data(), nodes, MPI_INT, 0, PETSC_COMM_WORLD);
  permutation_ = renumber::Permutation::from_old_of_new(std::move(old_of_new));
  for (int n = 0; n < nodes; ++n) {
    if (node_owner_[n] < rank_) ++first_node_;
    if (node_owner_[n] == rank_) ++owned_nodes_;
  }

  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const auto cell_nodes = mesh.cells.nodes_of(e);
    if (cell_owner(cell_nodes, node_owner_, ranks_) == rank_) own_cells_.push_back(e);
    if (std::any_of(cell_nodes.begin(), cell_nodes.end(), [&](int n) { return owns_node(n); })) post_cells_.push_back(e);
  }
}

std::vector<std::int64_t> DistributedSystem::equations_per_rank() const {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(ranks_), 0);
  for (int owner : node_owner_) counts[static_cast<std::size_t>(owner)] += problem_.physics.dofs_per_node();
  return counts;
}

void DistributedSystem::assemble(const DofMap& dofs, const Constraints& constraints) {
  dofs_ = &dofs;
  const int d = dofs.dofs_per_node;
  const RowCounts counts = count_rows(
      owned_nodes_, d, graph_, [&](std::int64_t k) { return dofs.node_at_rank[static_cast<std::size_t>(first_node_ + k)]; },
      [&](int node) { return owns_node(node); });
  make_preallocated_system(matrix_, rhs_, dofs.num_dofs(), d, counts);

  std::vector<std::int64_t> cells(own_cells_.begin(), own_cells_.end());
  collectively(PETSC_COMM_WORLD, [&] {
    if (cells.empty()) throw std::runtime_error("no cells to assemble: too many ranks for this mesh");
    const ElementSystemData elements = make_element_system(problem_, dofs, constraints, cells);
    ElementContribution e;
    for (const auto id : elements.order) {
      try {
        elements.system.element(id, e);
      } catch (const InvertedElement& bad) {
        throw CaseError(problem_.mesh->source + ": " + bad.what());
      }
      constrain_element(e, constraints.prescribed);
      const auto n = static_cast<PetscInt>(e.dofs.size());
      check(MatSetValues(matrix_, n, e.dofs.data(), n, e.dofs.data(), e.matrix.data(), ADD_VALUES), "MatSetValues");
      check(VecSetValues(rhs_, n, e.dofs.data(), e.load.data(), ADD_VALUES), "VecSetValues");
    }
  });
  check(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(VecAssemblyBegin(rhs_), "VecAssemblyBegin");
  check(VecAssemblyEnd(rhs_), "VecAssemblyEnd");
  check(MatSetOption(matrix_, MAT_SPD, PETSC_TRUE), "MatSetOption");
}

SolveReport DistributedSystem::solve(petsc::Method method, const SolverOptions& options, std::span<double> solution,
                                     double& residual) {
  const int d = dofs_->dofs_per_node;
  if (method == petsc::Method::Krylov) {
    std::vector<double> coordinates(static_cast<std::size_t>(3 * owned_nodes_));
    for (std::int64_t k = 0; k < owned_nodes_; ++k) {
      const int node = dofs_->node_at_rank[static_cast<std::size_t>(first_node_ + k)];
      std::copy_n(&problem_.mesh->coords[3 * static_cast<std::size_t>(node)], 3, &coordinates[3 * k]);
    }
    petsc::attach_near_null_space(matrix_, d, problem_.mesh->dimension, coordinates);
  }
  petsc::OwnedVec x;
  check(MatCreateVecs(matrix_, x.out(), nullptr), "MatCreateVecs");
  SolveReport report = petsc::solve_from_zero(matrix_, rhs_, x, method, options, residual);

  VecScatter to_all = nullptr;
  petsc::OwnedVec everything;
  check(VecScatterCreateToAll(x, &to_all, everything.out()), "VecScatterCreateToAll");
  PetscErrorCode scattered = VecScatterBegin(to_all, x, everything, INSERT_VALUES, SCATTER_FORWARD);
  if (scattered == 0) scattered = VecScatterEnd(to_all, x, everything, INSERT_VALUES, SCATTER_FORWARD);
  VecScatterDestroy(&to_all);
  check(scattered, "VecScatter");
  const PetscScalar* values = nullptr;
  check(VecGetArrayRead(everything, &values), "VecGetArrayRead");
  std::copy_n(values, solution.size(), solution.begin());
  check(VecRestoreArrayRead(everything, &values), "VecRestoreArrayRead");
  return report;
}

void DistributedSystem::combine(NodalResults& results) const {
  const std::size_t nodes = node_owner_.size();
  using Field = std::span<double>;
  for (const Field field : {Field(results.displacement), Field(results.strain), Field(results.stress),
                            Field(results.von_mises), Field(results.principal_stress), Field(results.tresca),
                            Field(results.temperature), Field(results.heat_flux), Field(results.reaction)}) {
    if (field.empty()) continue;
    const std::size_t width = field.size() / nodes;
    for (std::size_t n = 0; n < nodes; ++n)
      if (!owns_node(static_cast<int>(n))) std::fill_n(field.begin() + n * width, width, 0.0);
    MPI_Allreduce(MPI_IN_PLACE, field.data(), static_cast<int>(field.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  }
  results.group_reactions = group_reactions(problem_, results.reaction);
  // Each rank swept its own cells: the loads they carry add up.
  MPI_Allreduce(MPI_IN_PLACE, results.body_load.data(), 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, results.applied_load.data(), 3, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
}

}  // namespace fem

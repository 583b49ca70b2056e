#include "fem/parallel/block_system.hpp"

#include <algorithm>
#include <numeric>

#include "fem/assembly/element_system.hpp"
#include "fem/case/case.hpp"
#include "fem/parallel/collective.hpp"
#include "fem/parallel/distributed_matrix.hpp"
#include "fem/parallel/element_constraints.hpp"
#include "fem/physics/element_matrices.hpp"
#include "solvers/petsc/petsc_session.hpp"

namespace fem {
namespace {

using petsc::check;

// The part's nodes in the ghosted vectors' order: the owned ones at their place in this rank's
// block of box numbers, then the ghosts in the box's order.
GhostExchange block_ghosts(const BoxPart& part) {
  const std::size_t nodes = part.global_node.size();
  std::vector<std::int32_t> position(nodes);
  std::vector<std::int32_t> ghosts;
  for (std::size_t n = 0; n < nodes; ++n) {
    if (part.owned[n])
      position[n] = static_cast<std::int32_t>(part.global_node[n] - part.first_node);
    else
      ghosts.push_back(static_cast<std::int32_t>(n));
  }
  std::sort(ghosts.begin(), ghosts.end(), [&](int a, int b) { return part.global_node[a] < part.global_node[b]; });
  std::vector<PetscInt> ghost_nodes(ghosts.size());
  for (std::size_t k = 0; k < ghosts.size(); ++k) {
    position[ghosts[k]] = static_cast<std::int32_t>(part.owned_nodes + static_cast<std::int64_t>(k));
    ghost_nodes[k] = static_cast<PetscInt>(part.global_node[ghosts[k]]);
  }
  return GhostExchange(part.owned_nodes, std::move(ghost_nodes), std::move(position));
}

// GAMG's coarse operators P^T A P by hypre's product (PETSc's all-at-once one where PETSc has no
// hypre): PETSc's default for distributed matrices holds P^T and A P whole while it multiplies,
// which on elasticity costs each rank more than its part of the matrix itself and keeps a rank's
// peak from falling with the number of ranks; hypre's keeps it low and sets up no slower. A
// -matptap_via the user gave (PETSC_OPTIONS) wins.
void use_memory_scalable_galerkin_products() {
#ifdef PETSC_HAVE_HYPRE
  const char* product = "hypre";
#else
  const char* product = "allatonce_merged";
#endif
  PetscBool given = PETSC_FALSE;
  check(PetscOptionsHasName(nullptr, nullptr, "-matptap_via", &given), "PetscOptionsHasName");
  if (!given) check(PetscOptionsSetValue(nullptr, "-matptap_via", product), "PetscOptionsSetValue");
}

}  // namespace

BlockSystem::BlockSystem(const Problem& problem, const BoxPart& part)
    : problem_(problem),
      part_(part),
      graph_(renumber::node_graph_from_elements(part.mesh.cells.offset, part.mesh.cells.node,
                                                static_cast<int>(part.mesh.num_nodes()))),
      ghosts_(block_ghosts(part)),
      dofs_(make_dof_map(part.mesh.num_nodes(), problem.physics.dofs_per_node(), ghosts_.position())),
      constraints_(collect_constraints(problem, dofs_)) {
  const int d = dofs_.dofs_per_node;
  global_equation_.resize(static_cast<std::size_t>(dofs_.num_dofs()));
  for (std::size_t p = 0; p < dofs_.node_at_rank.size(); ++p)
    for (int c = 0; c < d; ++c)
      global_equation_[p * d + c] = static_cast<PetscInt>(part.global_node[dofs_.node_at_rank[p]] * d + c);
}

RowFigures BlockSystem::row_figures() const {
  const std::int64_t d = dofs_.dofs_per_node;
  RowFigures figures;
  for (std::int64_t k = 0; k < part_.owned_nodes; ++k) {
    const int node = dofs_.node_at_rank[static_cast<std::size_t>(k)];
    const std::int64_t row = part_.global_node[node];
    std::int64_t lowest = row, farthest = 0;
    for (int neighbour : graph_.neighbours_of(node)) {
      lowest = std::min(lowest, part_.global_node[neighbour]);
      farthest = std::max(farthest, std::abs(part_.global_node[neighbour] - row));
    }
    figures.nnz += (1 + graph_.degree(node)) * d * d;
    figures.bandwidth = std::max(figures.bandwidth, farthest * d + d - 1);
    for (std::int64_t c = 0; c < d; ++c) figures.profile += row * d + c - lowest * d;
  }
  return figures;
}

void BlockSystem::preallocate() {
  const int d = dofs_.dofs_per_node;
  const RowCounts counts = count_rows(
      part_.owned_nodes, d, graph_, [&](std::int64_t k) { return dofs_.node_at_rank[static_cast<std::size_t>(k)]; },
      [&](int node) { return part_.owned[node] != 0; });
  make_preallocated_system(matrix_, rhs_, part_.box_nodes * d, d, counts);
}

void BlockSystem::assemble() {
  preallocate();
  const std::vector<std::int64_t> cells(part_.own_cells.begin(), part_.own_cells.end());
  collectively(PETSC_COMM_WORLD, [&] {
    const ElementSystemData elements = make_element_system(problem_, dofs_, constraints_, cells);
    ElementContribution e;
    std::vector<PetscInt> rows;
    for (const auto id : elements.order) {
      try {
        elements.system.element(id, e);
      } catch (const InvertedElement& bad) {
        throw CaseError(problem_.mesh->source + ": " + bad.what());
      }
      add_applied(e);
      constrain_element(e, constraints_.prescribed);
      rows.resize(e.dofs.size());
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = global_equation_[static_cast<std::size_t>(e.dofs[i])];
      const auto n = static_cast<PetscInt>(rows.size());
      check(MatSetValues(matrix_, n, rows.data(), n, rows.data(), e.matrix.data(), ADD_VALUES), "MatSetValues");
      check(VecSetValues(rhs_, n, rows.data(), e.load.data(), ADD_VALUES), "VecSetValues");
    }
  });
  check(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(VecAssemblyBegin(rhs_), "VecAssemblyBegin");
  check(VecAssemblyEnd(rhs_), "VecAssemblyEnd");
  check(MatSetOption(matrix_, MAT_SPD, PETSC_TRUE), "MatSetOption");
}

void BlockSystem::add_applied(const ElementContribution& e) {
  const int d = dofs_.dofs_per_node;
  if (problem_.physics.type != PhysicsType::Elasticity) return;
  const std::array<double, 3> origin{};
  for (std::size_t i = 0; i < e.dofs.size(); i += static_cast<std::size_t>(d)) {  // a node's dofs together
    const int node = dofs_.node_at_rank[static_cast<std::size_t>(e.dofs[i] / d)];
    double f[3] = {0, 0, 0};
    for (int c = 0; c < d; ++c) f[c] = e.load[i + static_cast<std::size_t>(c)];
    add_force(applied_, &part_.mesh.coords[3 * static_cast<std::size_t>(node)], f, origin);
  }
}

SolveReport BlockSystem::solve(petsc::Method method, const SolverOptions& options, std::vector<double>& solution,
                              double& residual) {
  const int d = dofs_.dofs_per_node;
  if (method == petsc::Method::Krylov) {
    std::vector<double> coordinates(static_cast<std::size_t>(3 * part_.owned_nodes));
    for (std::int64_t k = 0; k < part_.owned_nodes; ++k)
      std::copy_n(&part_.mesh.coords[3 * static_cast<std::size_t>(dofs_.node_at_rank[static_cast<std::size_t>(k)])], 3,
                  &coordinates[3 * k]);
    petsc::attach_near_null_space(matrix_, d, part_.mesh.dimension, coordinates);
    use_memory_scalable_galerkin_products();
  }
  petsc::OwnedVec x;
  check(MatCreateVecs(matrix_, x.out(), nullptr), "MatCreateVecs");
  SolveReport report = petsc::solve_from_zero(matrix_, rhs_, x, method, options, residual);

  solution.assign(static_cast<std::size_t>(dofs_.num_dofs()), 0.0);
  const PetscScalar* mine = nullptr;
  check(VecGetArrayRead(x, &mine), "VecGetArrayRead");
  std::copy_n(mine, equations(), solution.begin());
  check(VecRestoreArrayRead(x, &mine), "VecRestoreArrayRead");
  ghosts_.update_by_position(solution, d);
  return report;
}

}  // namespace fem

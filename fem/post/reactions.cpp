#include "fem/post/reactions.hpp"

#include <algorithm>
#include <utility>

#include "fem/assembly/element_system.hpp"
#include "fem/physics/element_matrices.hpp"
#include "kernels/uninitialized_allocator.hpp"
#include "support/first_failure.hpp"

namespace fem {
namespace {

// What every element needs to add its share: the solution and which nodes are constrained.
struct ResidualContext {
  const DofMap& dofs;
  const Constraints& constraints;
  std::span<const double> u;
  const std::vector<char>& constrained_node;  // any component of the node fixed
};

// Over `count` elements: for those that touch a constrained node, K_e u_e - f_e added at their
// constrained rows of `residual`; returns the loads of all of them summed when `total_loads`
// (then every element is computed, else only those at a constraint). `compute(k, buffers)`
// fills element k's load, and its matrix when it returns true. The elements are computed in
// parallel into a buffer, then added to `residual` in element order: the sums do not depend on
// the thread count.
template <class NodesOf, class Compute>
std::array<double, 3> add_element_shares(std::size_t count, NodesOf nodes_of, Compute compute, bool total_loads,
                                         const ResidualContext& ctx, std::span<double> residual) {
  const int d = ctx.dofs.dofs_per_node;
  // Where each touching element's rows go in the buffer (-1: it touches no constraint).
  kernels::UninitializedVector<std::int64_t> slot(count);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < count; ++k) {
    const auto nodes = nodes_of(k);
    const bool touching = std::any_of(nodes.begin(), nodes.end(), [&](int n) { return ctx.constrained_node[n]; });
    slot[k] = touching ? static_cast<std::int64_t>(nodes.size()) * d : -1;
  }
  std::int64_t slots = 0;
  for (auto& s : slot)
    if (s >= 0) slots += std::exchange(s, slots);
  std::vector<double> rows(static_cast<std::size_t>(slots), 0.0);

  FirstFailure failure;
  double lx = 0, ly = 0, lz = 0;
#pragma omp parallel reduction(+ : lx, ly, lz)
  {
    ElementBuffers buffers;
#pragma omp for schedule(dynamic, 64)
    for (std::size_t k = 0; k < count; ++k)
      failure.run([&] {
        if (slot[k] < 0 && !total_loads) return;
        const auto nodes = nodes_of(k);
        const int nd = static_cast<int>(nodes.size()) * d;
        const bool with_matrix = compute(k, buffers);
        double load[3] = {0, 0, 0};
        for (int i = 0; i < nd; ++i) load[i % d] += buffers.load[i];
        lx += load[0], ly += load[1], lz += load[2];
        if (slot[k] < 0) return;
        for (int i = 0; i < nd; ++i) {
          if (!ctx.constraints.is_fixed(ctx.dofs.dof(nodes[i / d], i % d))) continue;
          double ku = 0;
          if (with_matrix)
            for (int j = 0; j < nd; ++j)
              ku += buffers.matrix[static_cast<std::size_t>(i) * nd + j] * ctx.u[ctx.dofs.dof(nodes[j / d], j % d)];
          rows[slot[k] + i] = ku - buffers.load[i];
        }
      });
  }
  failure.rethrow_if_failed();
  // Few elements touch the constraints: adding their rows in order is cheap.
  for (std::size_t k = 0; k < count; ++k) {
    if (slot[k] < 0) continue;
    const auto nodes = nodes_of(k);
    for (int i = 0; i < static_cast<int>(nodes.size()) * d; ++i) {
      const auto row = ctx.dofs.dof(nodes[i / d], i % d);
      if (ctx.constraints.is_fixed(row)) residual[row] += rows[slot[k] + i];
    }
  }
  return {lx, ly, lz};
}

// Load facets as one list of (load, index within it), those owned by `cells` only when given.
struct FacetRef {
  const BoundaryLoad* load;
  std::size_t index;
};

std::vector<FacetRef> facets_of(const Problem& problem, std::span<const std::size_t> cells) {
  std::vector<FacetRef> facets;
  if (cells.empty()) {
    for (const auto& load : problem.loads)
      for (std::size_t k = 0; k < load.facets.size(); ++k) facets.push_back({&load, k});
    return facets;
  }
  std::vector<char> in_part(problem.mesh->cells.size(), 0);
  for (std::size_t e : cells) in_part[e] = 1;
  const auto owners = facet_owner_cells(problem);
  std::size_t facet = 0;
  for (const auto& load : problem.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k)
      if (in_part[owners[facet++]]) facets.push_back({&load, k});
  return facets;
}

}  // namespace

Reactions reactions(const Problem& problem, const DofMap& dofs, const Constraints& constraints, std::span<const double> u,
                    std::span<const std::size_t> cells) {
  const Mesh& mesh = *problem.mesh;
  const std::size_t nn = mesh.num_nodes();
  const int d = dofs.dofs_per_node;
  // K u - f is summed at the constrained equations alone: the others' entries are never read.
  std::vector<char> constrained_node(nn, 0);
  kernels::UninitializedVector<double> residual(static_cast<std::size_t>(dofs.num_dofs()));
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < d; ++c) {
      const auto dof = dofs.dof(static_cast<int>(n), c);
      if (dof < 0 || !constraints.is_fixed(dof)) continue;
      constrained_node[n] = 1;
      residual[dof] = 0;
    }
  const ResidualContext ctx{dofs, constraints, u, constrained_node};

  Reactions out;
  const auto cell_at = [&](std::size_t k) { return cells.empty() ? k : cells[k]; };
  add_element_shares(
      cells.empty() ? mesh.cells.size() : cells.size(), [&](std::size_t k) { return mesh.cells.nodes_of(cell_at(k)); },
      [&](std::size_t k, ElementBuffers& buffers) {
        cell_contribution(problem, cell_at(k), buffers);
        return true;
      },
      false, ctx, residual);
  const auto facets = facets_of(problem, cells);
  out.boundary_load = add_element_shares(
      facets.size(), [&](std::size_t k) { return mesh.boundary.nodes_of(facets[k].load->facets[facets[k].index]); },
      [&](std::size_t k, ElementBuffers& buffers) {
        facet_contribution(problem, *facets[k].load, facets[k].index, buffers);
        return facets[k].load->kind == BoundaryLoad::Kind::Convection;
      },
      true, ctx, residual);

  const int rc = problem.physics.type == PhysicsType::Elasticity ? 3 : 1;
  out.reaction.resize(rc * nn);
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < rc; ++c) {
      const auto dof = c < d ? dofs.dof(static_cast<int>(n), c) : -1;
      out.reaction[rc * n + c] = dof >= 0 && constraints.is_fixed(dof) ? residual[dof] : 0.0;
    }
  return out;
}

}  // namespace fem

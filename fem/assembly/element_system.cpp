#include "fem/assembly/element_system.hpp"

#include <algorithm>
#include <numeric>
#include <span>
#include <stdexcept>

#include "fem/physics/element_matrices.hpp"

namespace fem {

namespace {

// Load facets in one list, each as (load, index within the load).
struct FacetRef {
  const BoundaryLoad* load;
  std::size_t index;
};

std::vector<std::vector<std::int64_t>> cells_by_node(const Mesh& mesh) {
  std::vector<std::vector<std::int64_t>> cells_of_node(mesh.num_nodes());
  for (std::size_t e = 0; e < mesh.cells.size(); ++e)
    for (int n : mesh.cells.nodes_of(e)) cells_of_node[n].push_back(static_cast<std::int64_t>(e));
  return cells_of_node;
}

bool holds_nodes(const Mesh& mesh, std::int64_t cell, std::span<const int> nodes) {
  const auto cn = mesh.cells.nodes_of(static_cast<std::size_t>(cell));
  return std::all_of(nodes.begin(), nodes.end(), [&](int n) { return std::find(cn.begin(), cn.end(), n) != cn.end(); });
}

std::vector<std::int64_t> facet_owner_cells(const Problem& problem, const std::vector<std::vector<std::int64_t>>& cells_of_node) {
  const Mesh& mesh = *problem.mesh;
  std::vector<std::int64_t> owners;
  for (const auto& load : problem.loads)
    for (std::size_t facet : load.facets) {
      const auto nodes = mesh.boundary.nodes_of(facet);
      std::int64_t owner = -1;
      for (auto e : cells_of_node[nodes[0]])  // ascending
        if (holds_nodes(mesh, e, nodes)) {
          owner = e;
          break;
        }
      if (owner < 0) throw std::runtime_error("a loaded boundary element lies on no cell of the mesh");
      owners.push_back(owner);
    }
  return owners;
}

}  // namespace

std::vector<std::int64_t> facet_owner_cells(const Problem& problem) {
  return facet_owner_cells(problem, cells_by_node(*problem.mesh));
}

ElementSystemData make_element_system(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                                      const std::vector<std::int64_t>& cell_order) {
  const Mesh& mesh = *problem.mesh;
  const auto cells = static_cast<std::int64_t>(mesh.cells.size());
  std::vector<std::int64_t> order = cell_order;
  if (order.empty()) {
    order.resize(cells);
    std::iota(order.begin(), order.end(), 0);
  }
  auto facets = std::make_shared<std::vector<FacetRef>>();
  for (const auto& load : problem.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) facets->push_back({&load, k});

  // Position of each cell in the order (-1: not in it); a facet goes after the earliest cell
  // holding all its nodes, and only when its owner cell is in the order.
  std::vector<std::int64_t> position(cells, -1);
  for (std::size_t p = 0; p < order.size(); ++p) position[order[p]] = static_cast<std::int64_t>(p);
  const auto cells_of_node = cells_by_node(mesh);
  const auto owners = facet_owner_cells(problem, cells_of_node);
  std::vector<std::vector<std::int64_t>> after(cells);
  for (std::size_t f = 0; f < facets->size(); ++f) {
    if (position[owners[f]] < 0) continue;
    const auto nodes = mesh.boundary.nodes_of((*facets)[f].load->facets[(*facets)[f].index]);
    std::int64_t best = owners[f];
    for (auto e : cells_of_node[nodes[0]])
      if (position[e] >= 0 && position[e] < position[best] && holds_nodes(mesh, e, nodes)) best = e;
    after[best].push_back(cells + static_cast<std::int64_t>(f));
  }
  ElementSystemData data;
  for (auto e : order) {
    data.order.push_back(e);
    for (auto f : after[e]) data.order.push_back(f);
  }

  const int d = dofs.dofs_per_node;
  data.system.equations = dofs.num_dofs();
  data.system.order = data.order;
  data.system.prescribed = constraints.prescribed;
  data.system.element = [&problem, &dofs, &mesh, facets, cells, d](std::int64_t id, ElementContribution& out) {
    thread_local ElementBuffers buffers;
    std::span<const int> nodes;
    if (id < cells) {
      cell_contribution(problem, static_cast<std::size_t>(id), buffers);
      nodes = mesh.cells.nodes_of(static_cast<std::size_t>(id));
    } else {
      const FacetRef& f = (*facets)[static_cast<std::size_t>(id - cells)];
      facet_contribution(problem, *f.load, f.index, buffers);
      nodes = mesh.boundary.nodes_of(f.load->facets[f.index]);
    }
    out.dofs.resize(nodes.size() * d);
    for (std::size_t a = 0; a < nodes.size(); ++a)
      for (int c = 0; c < d; ++c) out.dofs[a * d + c] = static_cast<std::int32_t>(dofs.dof(nodes[a], c));
    out.matrix = buffers.matrix;
    out.load = buffers.load;
  };
  return data;
}

}  // namespace fem

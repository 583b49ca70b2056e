#include "tests/verification/modal_pencil.hpp"

#include <doctest/doctest.h>

#include "fem/pipeline/node_ordering.hpp"
#include "tests/support/solve.hpp"

namespace fem::testing {

Problem elastic_box(const Mesh& mesh, ElasticModel model, double thickness, double density) {
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, model, thickness, mesh.dimension};
  p.materials = {{70e9, 0.3, density, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  return p;
}

Pencil pencil_of(const Problem& p, MassLumping lumping) {
  const Mesh& mesh = *p.mesh;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const int d = p.physics.dofs_per_node();
  const auto order = order_nodes(graph, "rcm", SolverMethodId::BandCholesky, d);
  Pencil out{make_dof_map(mesh.num_nodes(), d, order.permutation.new_of_old), {}, {}, 0};
  out.k = assemble(p, out.dofs, graph);
  const auto constraints = collect_constraints(p, out.dofs);
  apply_constraints(out.k.matrix, out.k.rhs, constraints);
  out.m = assemble_mass(p, out.dofs, graph, lumping);
  out.total_mass = translational_mass(out.m, out.dofs);
  remove_fixed_mass(out.m, constraints);
  return out;
}

ModalSolution modes_of(const Problem& p, int modes, MassLumping lumping, EigenMethod method, Device device) {
  const Pencil pencil = pencil_of(p, lumping);
  SolverOptions options;
  options.method = SolverMethodId::BandCholesky;
  auto solver = make_solver(options);
  AnalysisSpec analysis;
  analysis.type = AnalysisType::Modal;
  analysis.modes = modes;
  analysis.mass = lumping;
  analysis.method = method;
  const auto& mesh = *p.mesh;
  std::vector<double> coordinates(mesh.coords.size());  // in equation order, for AMG's rigid-body modes
  for (std::size_t rank = 0; rank < pencil.dofs.node_at_rank.size(); ++rank)
    for (int c = 0; c < 3; ++c) coordinates[3 * rank + c] = mesh.coords[3 * pencil.dofs.node_at_rank[rank] + c];
  const NodeLayout nodes{pencil.dofs.dofs_per_node, mesh.dimension, coordinates};
  auto modal = solve_modal(pencil.dofs, pencil.k.matrix, pencil.m, pencil.total_mass, *solver, nodes, {}, device, analysis);
  for (double r : modal.residuals) CHECK(r < 1e-6);  // what a run accepts
  return modal;
}

}  // namespace fem::testing

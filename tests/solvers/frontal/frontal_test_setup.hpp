#pragma once
// Elasticity on a box, ready for the frontal solver: RCM-renumbered dofs, the element order
// the pipeline uses, prescribed non-zero displacements and gravity; plus the CG answer in the
// same equation numbering as the reference.
#include <memory>
#include <vector>

#include "fem/assembly/element_system.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "tests/support/solve.hpp"

namespace fem::frontal_test {

struct BoxSystem {
  Mesh mesh;
  Problem problem;
  DofMap dofs;
  Constraints constraints;
  renumber::Permutation numbering;
  ElementSystemData elements;
};

// Kept behind a pointer: the element system refers to the problem and the dof map.
inline std::unique_ptr<BoxSystem> make_box_system(ElementShape shape, int order, bool serendipity,
                                                  std::vector<int> divisions) {
  auto s = std::make_unique<BoxSystem>();
  const int dim = static_cast<int>(divisions.size());
  BoxSpec spec;
  spec.size = dim == 3 ? std::vector<double>{1.0, 0.7, 0.6} : std::vector<double>{1.0, 0.7};
  spec.divisions = divisions;
  spec.shape = shape;
  spec.order = order;
  spec.serendipity = serendipity;
  s->mesh = make_box_mesh(spec);
  Problem& p = s->problem;
  p.mesh = &s->mesh;
  p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 0.5, dim};
  p.materials = {{200e9, 0.3, 7800, 0}};
  p.cell_material.assign(s->mesh.cells.size(), 0);
  p.gravity = {0, -9.81 * 1e3, 0};
  // xmin is pushed and sheared as a function of position, xmax is pulled in x only.
  p.dirichlet.push_back({"xmin", testing::nodes_of_groups(s->mesh, {"xmin"}), {true, true, dim == 3}, {},
                         [](const double* x, double* u) {
                           u[0] = 1e-4 * (1 + x[1]);
                           u[1] = -2e-4 * x[1] * x[1];
                           u[2] = 5e-5;
                         }});
  p.dirichlet.push_back({"xmax", testing::nodes_of_groups(s->mesh, {"xmax"}), {true, false, false}, {3e-4, 0, 0}, {}});
  const auto graph = renumber::node_graph_from_elements(s->mesh.cells.offset, s->mesh.cells.node,
                                                        static_cast<int>(s->mesh.num_nodes()));
  s->numbering = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  s->dofs = make_dof_map(s->mesh.num_nodes(), p.physics.dofs_per_node(),
                         {s->numbering.new_of_old.begin(), s->numbering.new_of_old.end()});
  s->constraints = collect_constraints(p, s->dofs);
  const auto cells = renumber::element_order_by_nodes(s->mesh.cells.offset, s->mesh.cells.node, s->numbering);
  s->elements = make_element_system(p, s->dofs, s->constraints, {cells.begin(), cells.end()});
  return s;
}

// The CG solution (its own numbering) moved into the box system's equation numbering.
inline std::vector<double> reference_solution(const BoxSystem& s) {
  const auto cg = testing::solve(s.problem, 1e-15);
  const int d = s.problem.physics.dofs_per_node();
  std::vector<double> u(s.dofs.num_dofs());
  for (std::size_t node = 0; node < s.mesh.num_nodes(); ++node)
    for (int c = 0; c < d; ++c) u[s.dofs.dof(static_cast<int>(node), c)] = cg.value(static_cast<int>(node), c);
  return u;
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

inline double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

}  // namespace fem::frontal_test

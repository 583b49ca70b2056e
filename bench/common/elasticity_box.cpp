#include "bench/common/elasticity_box.hpp"

#include <algorithm>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/renumber.hpp"

namespace fem::bench {

ElasticityBox elasticity_box(int cells, const std::array<double, 3>& gravity) {
  BoxSpec spec;
  spec.size = {1.0, 1.0, 1.0};
  spec.divisions = {cells, cells, cells};
  spec.shape = ElementShape::Hexahedron;
  const Mesh mesh = make_box_mesh(spec);
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
  p.materials = {{200e9, 0.3, 7800, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.gravity = gravity;
  std::vector<int> fixed;
  for (auto e : mesh.find_group("xmin")->elements)
    for (int n : mesh.boundary.nodes_of(e)) fixed.push_back(n);
  std::sort(fixed.begin(), fixed.end());
  fixed.erase(std::unique(fixed.begin(), fixed.end()), fixed.end());
  p.dirichlet.push_back({"xmin", fixed, {true, true, true}, {}, {}});
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node,
                                                        static_cast<int>(mesh.num_nodes()));
  const auto numbering = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  const DofMap dofs = make_dof_map(mesh.num_nodes(), 3, {numbering.new_of_old.begin(), numbering.new_of_old.end()});
  auto assembled = assemble(p, dofs, graph);
  apply_constraints(assembled.matrix, assembled.rhs, collect_constraints(p, dofs));
  ElasticityBox box{std::move(assembled.matrix), std::move(assembled.rhs), {}};
  box.coordinates.reserve(3 * dofs.node_at_rank.size());
  for (const auto node : dofs.node_at_rank)
    for (int k = 0; k < 3; ++k) box.coordinates.push_back(mesh.coords[3 * node + k]);
  return box;
}

}  // namespace fem::bench

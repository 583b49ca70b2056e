// The loads without K (assemble_loads: a load set's right-hand side, the device path's boundary
// loads) against assemble()'s right-hand side, on jittered boxes of every element type, with body
// loads (gravity, a source: added on all threads) and a boundary load.
#include <doctest/doctest.h>

#include "fem/assembly/assembler.hpp"
#include "tests/assembly/jittered_problems.hpp"
#include "tests/support/vectors.hpp"

using namespace fem;

namespace {

// A traction (elasticity) or a flux (heat) on xmax besides the problem's body loads.
Problem with_boundary_load(const Mesh& mesh, PhysicsType type, ElasticModel model) {
  Problem p = testing::problem_on(mesh, type, model);
  BoundaryLoad load;
  load.kind = type == PhysicsType::Heat ? BoundaryLoad::Kind::Flux : BoundaryLoad::Kind::Traction;
  load.group = "xmax";
  for (const auto& group : mesh.groups)
    if (group.name == "xmax") load.facets = group.elements;
  load.outward.assign(load.facets.size(), 1.0);
  load.vector = {1e5, -2e5, 3e4};
  load.value = -750;
  p.loads.push_back(load);
  return p;
}

void check_loads(const Problem& p) {
  const Mesh& mesh = *p.mesh;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node());
  const auto assembled = assemble(p, dofs, graph);
  const auto loads = assemble_loads(p, dofs);
  REQUIRE(loads.size() == assembled.rhs.size());
  CHECK(testing::max_rel_diff(loads, assembled.rhs) <= 1e-13);
  // Without the body loads: the loads of the same problem with no gravity and no source.
  Problem boundary_only = p;
  boundary_only.gravity = {0, 0, 0};
  boundary_only.source = 0;
  const auto boundary = assemble_loads(boundary_only, dofs);
  CHECK(testing::max_rel_diff(assemble_loads(p, dofs, false), boundary) <= 1e-15);
  CHECK(testing::max_rel_diff(boundary, loads) > 1e-6);  // the body loads are there to be left out
}

}  // namespace

TEST_CASE("the loads without K equal assemble()'s right-hand side, and without the body loads the boundary's alone") {
  const testing::Shape shapes3d[] = {{ElementShape::Tetrahedron, 2, false}, {ElementShape::Hexahedron, 1, false},
                                     {ElementShape::Hexahedron, 2, true}};
  const testing::Shape shapes2d[] = {{ElementShape::Triangle, 1, false}, {ElementShape::Quadrilateral, 2, false}};
  for (const auto& s : shapes3d) {
    CAPTURE(static_cast<int>(s.shape));
    const Mesh mesh = testing::jittered_box(3, s);
    check_loads(with_boundary_load(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D));
    check_loads(with_boundary_load(mesh, PhysicsType::Heat, ElasticModel::Solid3D));
  }
  // Enough cells for many blocks of each colour on every thread.
  BoxSpec large;
  large.size = {1.0, 0.8, 0.6};
  large.divisions = {14, 12, 10};
  const Mesh box = make_box_mesh(large);
  check_loads(with_boundary_load(box, PhysicsType::Elasticity, ElasticModel::Solid3D));
  for (const auto& s : shapes2d) {
    CAPTURE(static_cast<int>(s.shape));
    const Mesh mesh = testing::jittered_box(2, s);
    check_loads(with_boundary_load(mesh, PhysicsType::Elasticity, ElasticModel::PlaneStress));
    check_loads(with_boundary_load(mesh, PhysicsType::Heat, ElasticModel::PlaneStress));
  }
}

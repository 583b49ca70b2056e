// Boundary loads against hand calculations: pressure pushes into the body whichever way the
// facets are wound, tractions and gravity are balanced by the reactions, and a slab with a
// fixed temperature, a flux and convection matches the 1D analytic profile.
#include <doctest/doctest.h>

#include <cmath>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/problem.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using fem::testing::load_on;

namespace {

Problem elastic_box(const Mesh& mesh) {
  Problem p;
  p.mesh = &mesh;
  const int dim = mesh.dimension;
  p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStrain, 0.5, dim};
  p.materials = {{1e9, 0.3, 2000, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {}, {}});
  return p;
}

}  // namespace

TEST_CASE("pressure pushes into the body and the clamp carries pressure times area") {
  for (auto shape : {ElementShape::Triangle, ElementShape::Quadrilateral, ElementShape::Tetrahedron, ElementShape::Hexahedron})
    for (int order : {1, 2}) {
      const bool is3d = shape == ElementShape::Tetrahedron || shape == ElementShape::Hexahedron;
      BoxSpec spec{is3d ? std::vector<double>{2, 1, 0.5} : std::vector<double>{2, 1},
                   is3d ? std::vector<int>{4, 2, 2} : std::vector<int>{4, 2}, shape, order, false};
      const Mesh mesh = make_box_mesh(spec);
      CAPTURE(element_info(mesh.cells.type[0]).name);
      Problem p = elastic_box(mesh);
      // xmax pushed in -x, ymax pushed in -y: reactions +x and +y at the clamp.
      for (const char* face : {"xmax", "ymax"}) {
        auto l = load_on(mesh, face, BoundaryLoad::Kind::Pressure);
        l.value = 3e5;
        p.loads.push_back(l);
      }
      const double depth = is3d ? 0.5 : 0.5;  // out-of-plane: the thickness in 2D, z extent in 3D
      const auto s = testing::solve(p, 1e-12);
      const auto r = recover_results(p, s.dofs, s.constraints, s.u).group_reactions.at("xmin");
      CHECK(r[0] == doctest::Approx(3e5 * 1.0 * depth).epsilon(1e-8));
      CHECK(r[1] == doctest::Approx(3e5 * 2.0 * depth).epsilon(1e-8));
      CHECK(s.value(testing::nearest_node(mesh, 2, 1, is3d ? 0.5 : 0), 1) < 0);  // the top pressure bends the free end down
    }
}

TEST_CASE("gravity and traction are balanced by the reactions") {
  const Mesh mesh = make_box_mesh({{2, 1, 0.5}, {4, 2, 2}, ElementShape::Hexahedron, 2, false});
  Problem p = elastic_box(mesh);
  p.gravity = {0, 0, -9.81};
  auto l = load_on(mesh, "xmax", BoundaryLoad::Kind::Traction);
  l.vector = {0, 1e4, 0};
  p.loads.push_back(l);
  const auto s = testing::solve(p, 1e-12);
  const auto results = recover_results(p, s.dofs, s.constraints, s.u);
  const auto r = results.group_reactions.at("xmin");
  CHECK(r[1] == doctest::Approx(-1e4 * 0.5).epsilon(1e-8));
  CHECK(r[2] == doctest::Approx(2000 * 9.81 * 1.0).epsilon(1e-8));
  CHECK(results.applied_load[2] == doctest::Approx(-2000 * 9.81 * 1.0).epsilon(1e-10));
}

TEST_CASE("heat: fixed temperature, inflow flux and convection match the 1D slab solution") {
  // Slab 0 <= x <= L: T(0) = T0 and flux q into the body at... here convection at x = L:
  // -k T' = h (T(L) - T_inf)  =>  T linear with slope -h (T(L) - T_inf) / k.
  const double L = 2, k = 15, h = 40, T0 = 300, T_inf = 20;
  for (auto shape : {ElementShape::Triangle, ElementShape::Quadrilateral, ElementShape::Tetrahedron, ElementShape::Hexahedron}) {
    const bool is3d = shape == ElementShape::Tetrahedron || shape == ElementShape::Hexahedron;
    BoxSpec spec{is3d ? std::vector<double>{L, 0.3, 0.3} : std::vector<double>{L, 0.3},
                 is3d ? std::vector<int>{6, 1, 1} : std::vector<int>{6, 1}, shape, 1, false};
    const Mesh mesh = make_box_mesh(spec);
    CAPTURE(element_info(mesh.cells.type[0]).name);
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, mesh.dimension};
    p.materials = {{0, 0, 0, k}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, false, false}, {T0, 0, 0}, {}});
    auto conv = load_on(mesh, "xmax", BoundaryLoad::Kind::Convection);
    conv.h = h;
    conv.T_inf = T_inf;
    p.loads.push_back(conv);
    const auto s = testing::solve(p, 1e-13);
    const double TL = (k / L * T0 + h * T_inf) / (k / L + h);
    CHECK(s.value(testing::nearest_node(mesh, L, 0.3, is3d ? 0.3 : 0), 0) == doctest::Approx(TL).epsilon(1e-9));
    CHECK(s.value(testing::nearest_node(mesh, L / 2, 0, 0), 0) == doctest::Approx((T0 + TL) / 2).epsilon(1e-9));
    // The heat the fixed face lets in (its reaction) equals what convection takes away.
    const auto results = recover_results(p, s.dofs, s.constraints, s.u);
    const double area = is3d ? 0.09 : 0.3;
    CHECK(results.group_reactions.at("xmin")[0] == doctest::Approx(h * (TL - T_inf) * area).epsilon(1e-8));
  }
}

// Results that answer: principal stresses of known stress states, and reactions that balance
// the applied loads (tractions, pressures, total forces, couples, gravity, thermal strain) in
// force and moment, solved with a direct solver.
#include <doctest/doctest.h>

#include <cmath>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/problem.hpp"
#include "fem/physics/resultant_load.hpp"
#include "fem/post/load_balance.hpp"
#include "fem/post/principal_stress.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using fem::testing::load_on;

TEST_CASE("principal directions: the axes of a rotated stress state, and a triad where stresses repeat") {
  // R diag(300, 100, -50) Rᵀ with R a rotation about (1, 2, 2)/3 by 0.7 rad: the columns of R are
  // the directions, largest stress first.
  const double c = std::cos(0.7), s = std::sin(0.7), u[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3};
  double R[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const int k = 3 - i - j;  // the third index where i != j
      const double sign = (i == j) ? 0 : ((i + 1) % 3 == j ? -1 : 1);
      R[i][j] = (i == j ? c : 0) + (1 - c) * u[i] * u[j] + (i == j ? 0 : sign * s * u[k]);
    }
  const double d[3] = {300, 100, -50};
  double S[3][3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) S[i][j] += R[i][k] * d[k] * R[j][k];
  const auto v = principal_directions({S[0][0], S[1][1], S[2][2], S[0][1], S[1][2], S[0][2]});
  for (int k = 0; k < 3; ++k) {
    CAPTURE(k);
    const double along = std::abs(v[k][0] * R[0][k] + v[k][1] * R[1][k] + v[k][2] * R[2][k]);
    CHECK(along == doctest::Approx(1).epsilon(1e-10));
  }
  // Uniaxial zz: the first direction is z, the other two any orthonormal pair; hydrostatic: any.
  for (const std::array<double, 6>& state : {std::array<double, 6>{0, 0, 5, 0, 0, 0}, {-7, -7, -7, 0, 0, 0},
                                             {3, 1, 1, 0, 0, 0}}) {
    const auto w = principal_directions(state);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double dot = w[i][0] * w[j][0] + w[i][1] * w[j][1] + w[i][2] * w[j][2];
        CHECK(dot == doctest::Approx(i == j ? 1.0 : 0.0).epsilon(1e-12).scale(1));
      }
    if (state[2] == 5) CHECK(std::abs(w[0][2]) == doctest::Approx(1));
    if (state[0] == 3) CHECK(std::abs(w[0][0]) == doctest::Approx(1));
  }
}

TEST_CASE("principal stresses of known stress states, largest first, and Tresca") {
  // A shear in the xy plane beside a normal stress in z: 15 +- hypot(35, 30) and 10.
  auto p = principal_stresses({50, -20, 10, 30, 0, 0});
  CHECK(p[0] == doctest::Approx(15 + std::hypot(35, 30)).epsilon(1e-12));
  CHECK(p[1] == doctest::Approx(10).epsilon(1e-12));
  CHECK(p[2] == doctest::Approx(15 - std::hypot(35, 30)).epsilon(1e-12));
  CHECK(tresca(p) == doctest::Approx(2 * std::hypot(35, 30)).epsilon(1e-12));
  // diag(3, 1, -2) turned by a rotation R (about (1, 2, 2)/3 by 0.7 rad): R D R^T has them back.
  const double n[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, c = std::cos(0.7), s = std::sin(0.7), d[3] = {-2, 3, 1};
  double R[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double cross = i == j ? 0.0 : ((j - i + 3) % 3 == 1 ? -1.0 : 1.0) * n[3 - i - j];
      R[i][j] = (i == j ? c : 0.0) + (1 - c) * n[i] * n[j] + s * cross;
    }
  double S[3][3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) S[i][j] += R[i][k] * d[k] * R[j][k];
  p = principal_stresses({S[0][0], S[1][1], S[2][2], S[0][1], S[1][2], S[0][2]});
  CHECK(p[0] == doctest::Approx(3).epsilon(1e-12));
  CHECK(p[1] == doctest::Approx(1).epsilon(1e-12));
  CHECK(p[2] == doctest::Approx(-2).epsilon(1e-12));
  // Repeated values: hydrostatic and uniaxial.
  p = principal_stresses({-7, -7, -7, 0, 0, 0});
  for (double v : p) CHECK(v == doctest::Approx(-7));
  p = principal_stresses({0, 0, 5, 0, 0, 0});
  CHECK(p[0] == doctest::Approx(5));
  CHECK(p[1] == doctest::Approx(0));
  CHECK(p[2] == doctest::Approx(0));
}

namespace {

BoundaryLoad resultant_on(const Problem& p, const char* group, BoundaryLoad::Kind kind, std::array<double, 3> v) {
  BoundaryLoad load = load_on(*p.mesh, group, kind);
  load.vector = v;
  spread_resultant(p, load);
  return load;
}

double norm(const std::array<double, 3>& v) { return std::hypot(v[0], v[1], v[2]); }

}  // namespace

TEST_CASE("reactions balance the applied loads in force and moment") {
  const std::array<double, 3> about{0.3, -1, 2};
  SUBCASE("3D: pressure, traction, total force, couple and gravity on a clamped block") {
    for (auto shape : {ElementShape::Tetrahedron, ElementShape::Hexahedron}) {
      const Mesh mesh = make_box_mesh({{2, 1, 0.5}, {4, 2, 2}, shape, 2, false});
      Problem p;
      p.mesh = &mesh;
      p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
      p.materials = {{70e9, 0.33, 2700, 0}};
      p.cell_material.assign(mesh.cells.size(), 0);
      p.gravity = {0, -9.81, -3};
      p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {}, {}});
      p.dirichlet.push_back({"ymin", testing::nodes_of_groups(mesh, {"ymin"}), {false, true, false}, {}, {}});
      auto pressure = load_on(mesh, "zmax", BoundaryLoad::Kind::Pressure);
      pressure.value = 2e5;
      p.loads.push_back(pressure);
      auto traction = load_on(mesh, "ymax", BoundaryLoad::Kind::Traction);
      traction.vector = {1e4, 0, -3e4};
      p.loads.push_back(traction);
      p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Force, {500, -754, 120}));
      p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Moment, {40, -25, 90}));
      const auto s = testing::solve_direct(p);
      const auto r = recover_results(p, s.dofs, s.constraints, s.u);
      const LoadBalance b = load_balance(p, r.reaction, about);
      CHECK(b.balance < 1e-10);
      // The applied force: pressure, traction, the total force and the weight (the couple adds none).
      const std::array<double, 3> applied{1e4 * 2 * 0.5 + 500, -754 + 2700 * -9.81 * 1.0,
                                          -2e5 * 2 - 3e4 * 2 * 0.5 + 120 + 2700 * -3 * 1.0};
      for (int k = 0; k < 3; ++k) CHECK(b.applied.force[k] == doctest::Approx(applied[k]).epsilon(1e-12));
      // Per group reactions add up to the total over the nodes, less what nodes in both groups carry twice.
      CHECK(norm(b.reactions.force) == doctest::Approx(norm(b.applied.force)).epsilon(1e-10));
    }
  }
  SUBCASE("2D plane stress: a couple alone comes back as the opposite moment about any point") {
    const Mesh mesh = make_box_mesh({{3, 1}, {6, 2}, ElementShape::Triangle, 2, false});
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, ElasticModel::PlaneStress, 0.05, 2};
    p.materials = {{200e9, 0.3, 0, 0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, false}, {}, {}});
    p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Moment, {0, 0, -120}));
    const auto s = testing::solve_direct(p);
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);
    const LoadBalance b = load_balance(p, r.reaction, about);
    CHECK(b.balance < 1e-10);
    CHECK(b.applied.moment[2] == doctest::Approx(-120).epsilon(1e-12));
    CHECK(b.groups.at("xmin").moment[2] == doctest::Approx(120).epsilon(1e-10));
  }
  SUBCASE("thermal strain alone: the walls' reactions balance each other") {
    const Mesh mesh = make_box_mesh({{1, 0.2, 0.2}, {5, 1, 1}, ElementShape::Hexahedron, 2, false});
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
    p.materials = {{210e9, 0.3, 0, 0, 12e-6, 20}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.temperature.assign(mesh.num_nodes(), 120);
    for (const char* face : {"xmin", "xmax"})
      p.dirichlet.push_back({face, testing::nodes_of_groups(mesh, {face}), {true, false, false}, {}, {}});
    p.dirichlet.push_back({"ymin", testing::nodes_of_groups(mesh, {"ymin"}), {false, true, false}, {}, {}});
    p.dirichlet.push_back({"zmin", testing::nodes_of_groups(mesh, {"zmin"}), {false, false, true}, {}, {}});
    const auto s = testing::solve_direct(p);
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);
    const LoadBalance b = load_balance(p, r.reaction, about);
    CHECK(norm(b.applied.force) == 0);
    CHECK(b.balance < 1e-10);
    // The wall pushes back with E alpha dT over the section.
    CHECK(b.groups.at("xmax").force[0] == doctest::Approx(-210e9 * 12e-6 * 100 * 0.04).epsilon(1e-8));
  }
}

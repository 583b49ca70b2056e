// Loads given by their resultant: a total force spread over a group is carried by the clamp
// exactly, a couple comes back as the opposite reaction moment with no net force, and a
// cantilever under a total tip force or an end couple bends as beam theory says.
#include <doctest/doctest.h>

#include <cmath>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/problem.hpp"
#include "fem/physics/resultant_load.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using fem::testing::load_on;

namespace {

constexpr double E = 70e9, nu = 0.3;

Problem clamped(const Mesh& mesh, double thickness = 1.0) {
  Problem p;
  p.mesh = &mesh;
  const int dim = mesh.dimension;
  p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, thickness, dim};
  p.materials = {{E, nu, 0, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {}, {}});
  return p;
}

BoundaryLoad resultant_on(const Problem& p, const char* group, BoundaryLoad::Kind kind, std::array<double, 3> v) {
  BoundaryLoad load = load_on(*p.mesh, group, kind);
  load.vector = v;
  spread_resultant(p, load);
  return load;
}

// The reactions' total force and moment about the origin, node by node.
std::array<double, 6> reaction_resultant(const Problem& p, const NodalResults& r) {
  std::array<double, 6> total{};
  for (std::size_t n = 0; n < p.mesh->num_nodes(); ++n) {
    const double* x = &p.mesh->coords[3 * n];
    const double* f = &r.reaction[3 * n];
    for (int k = 0; k < 3; ++k) total[k] += f[k];
    total[3] += x[1] * f[2] - x[2] * f[1];
    total[4] += x[2] * f[0] - x[0] * f[2];
    total[5] += x[0] * f[1] - x[1] * f[0];
  }
  return total;
}

}  // namespace

TEST_CASE("a total force spread over a face comes back as the opposite reaction, exactly") {
  const std::array<double, 3> F{120, -754, 310};
  for (auto shape : {ElementShape::Triangle, ElementShape::Quadrilateral, ElementShape::Tetrahedron, ElementShape::Hexahedron})
    for (int order : {1, 2}) {
      const bool is3d = shape == ElementShape::Tetrahedron || shape == ElementShape::Hexahedron;
      const Mesh mesh = make_box_mesh({is3d ? std::vector<double>{2, 1, 0.5} : std::vector<double>{2, 1},
                                       is3d ? std::vector<int>{4, 2, 2} : std::vector<int>{4, 2}, shape, order, false});
      CAPTURE(element_info(mesh.cells.type[0]).name);
      Problem p = clamped(mesh, 0.25);
      p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Force, {F[0], F[1], is3d ? F[2] : 0.0}));
      // The traction is F over the face's area (2D: its length times the thickness).
      CHECK(p.loads.back().vector[1] == doctest::Approx(F[1] / (is3d ? 0.5 : 0.25)).epsilon(1e-12));
      const auto s = testing::solve(p, 1e-14);
      const auto r = recover_results(p, s.dofs, s.constraints, s.u);
      const auto reaction = r.group_reactions.at("xmin");
      for (int k = 0; k < (is3d ? 3 : 2); ++k) CHECK(std::abs(reaction[k] + F[k]) < 1e-10 * std::abs(F[1]));
    }
}

TEST_CASE("a couple on a face comes back as the opposite reaction moment, with no net force") {
  SUBCASE("3D, every axis at once") {
    const std::array<double, 3> M{300, -200, 500};
    for (auto shape : {ElementShape::Tetrahedron, ElementShape::Hexahedron}) {
      const Mesh mesh = make_box_mesh({{2, 1, 0.5}, {4, 2, 2}, shape, 2, false});
      CAPTURE(element_info(mesh.cells.type[0]).name);
      Problem p = clamped(mesh);
      p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Moment, M));
      const auto s = testing::solve(p, 1e-14);
      const auto total = reaction_resultant(p, recover_results(p, s.dofs, s.constraints, s.u));
      for (int k = 0; k < 3; ++k) {
        CHECK(std::abs(total[k]) < 1e-10 * std::abs(M[2]));
        CHECK(std::abs(total[3 + k] + M[k]) < 1e-10 * std::abs(M[2]));
      }
    }
  }
  SUBCASE("2D, about z") {
    const Mesh mesh = make_box_mesh({{2, 1}, {4, 2}, ElementShape::Quadrilateral, 2, false});
    Problem p = clamped(mesh, 0.1);
    p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Moment, {0, 0, 250}));
    const auto s = testing::solve(p, 1e-14);
    const auto total = reaction_resultant(p, recover_results(p, s.dofs, s.constraints, s.u));
    CHECK(std::abs(total[0]) < 1e-10 * 250);
    CHECK(std::abs(total[1]) < 1e-10 * 250);
    CHECK(std::abs(total[5] + 250) < 1e-10 * 250);
  }
}

TEST_CASE("a cantilever under a total tip force or an end couple bends as beam theory says") {
  // Plane stress, L = 10, h = 1, thickness b = 0.1: I = b h^3 / 12.
  const double L = 10, h = 1, b = 0.1, I = b * h * h * h / 12, G = E / (2 * (1 + nu));
  const Mesh mesh = make_box_mesh({{L, h}, {40, 4}, ElementShape::Quadrilateral, 2, false});
  const int tip = testing::nearest_node(mesh, L, h / 2);
  {
    const double F = -1000;
    Problem p = clamped(mesh, b);
    p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Force, {0, F, 0}));
    const auto s = testing::solve(p, 1e-13);
    // Timoshenko: bending plus shear (k = 5/6 for a rectangle).
    const double expected = F * L * L * L / (3 * E * I) + F * L / (5.0 / 6.0 * G * b * h);
    MESSAGE("tip force: deflection / Timoshenko - 1 = " << s.value(tip, 1) / expected - 1);
    CHECK(s.value(tip, 1) == doctest::Approx(expected).epsilon(0.01));
  }
  {
    const double M = 500;
    Problem p = clamped(mesh, b);
    p.loads.push_back(resultant_on(p, "xmax", BoundaryLoad::Kind::Moment, {0, 0, M}));
    const auto s = testing::solve(p, 1e-13);
    MESSAGE("end couple: deflection / (M L^2 / 2 E I) - 1 = " << s.value(tip, 1) / (M * L * L / (2 * E * I)) - 1);
    CHECK(s.value(tip, 1) == doctest::Approx(M * L * L / (2 * E * I)).epsilon(0.01));
  }
}

TEST_CASE("loads given by their resultant refuse what they cannot carry") {
  const Mesh mesh = make_box_mesh({{2, 1}, {4, 2}, ElementShape::Quadrilateral, 1, false});
  Problem p = clamped(mesh);
  BoundaryLoad force = load_on(mesh, "xmax", BoundaryLoad::Kind::Force);
  force.vector = {0, 1, 5};
  CHECK_THROWS_WITH_AS(spread_resultant(p, force), doctest::Contains("along z"), std::invalid_argument);
  BoundaryLoad moment = load_on(mesh, "xmax", BoundaryLoad::Kind::Moment);
  moment.vector = {1, 0, 0};
  CHECK_THROWS_WITH_AS(spread_resultant(p, moment), doctest::Contains("about z only"), std::invalid_argument);
}

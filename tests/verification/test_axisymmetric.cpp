// Axisymmetric models (x = r, y = the axis) against the closed forms of a hollow cylinder:
// Lame's thick cylinder under internal pressure with its ends held axially (plane strain), a
// ring heated uniformly and free to grow (u = alpha dT x, no stress), and steady conduction
// through the wall, T = Ti + (To - Ti) ln(r/a) / ln(b/a); and against a 3D quarter of the same
// cylinder. Every integral is over the full ring, so reactions are ring totals and the mass is
// the ring's.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/mass_matrix.hpp"
#include "fem/physics/problem.hpp"
#include "tests/support/solve.hpp"

using namespace fem;

namespace {

constexpr double a = 0.1, b = 0.2, h = 0.05;  // inner and outer radius, axial length
constexpr double pi = std::numbers::pi;

struct Element {
  ElementShape shape;
  int order;
  bool serendipity;
  int radial;  // cells across the wall
};
// Every 2D element type; the linear ones on a finer mesh.
const Element kElements[] = {{ElementShape::Quadrilateral, 2, true, 8},
                             {ElementShape::Quadrilateral, 2, false, 8},
                             {ElementShape::Triangle, 2, false, 8},
                             {ElementShape::Quadrilateral, 1, false, 32},
                             {ElementShape::Triangle, 1, false, 32}};

// The wall's section: r in [a, b], z in [0, h].
Mesh wall(const Element& e) {
  return make_box_mesh({{b - a, h}, {e.radial, 2}, e.shape, e.order, e.serendipity, {a, 0}});
}

Problem ring(const Mesh& mesh, PhysicsType type, const IsotropicMaterial& m) {
  Problem p;
  p.mesh = &mesh;
  p.physics = {type, ElasticModel::Axisymmetric, 1.0, 2};
  p.materials = {m};
  p.cell_material.assign(mesh.cells.size(), 0);
  return p;
}

double sum_over(std::span<const double> reaction, const std::vector<int>& nodes, int component, int stride) {
  double total = 0;
  for (int n : nodes) total += reaction[static_cast<std::size_t>(stride) * n + component];
  return total;
}

}  // namespace

TEST_CASE("Lame's thick cylinder, axisymmetric, ends held axially: u_r, hoop stress and the end force of the ring") {
  constexpr double E = 200e9, nu = 0.3, pressure = 100e6;
  const double A = pressure * a * a / (b * b - a * a), B = pressure * a * a * b * b / (b * b - a * a);
  const auto u_r = [&](double r) { return (1 + nu) / E * ((1 - 2 * nu) * A * r + B / r); };
  for (const Element& e : kElements) {
    const Mesh mesh = wall(e);
    CAPTURE(element_info(mesh.cells.type[0]).name);
    Problem p = ring(mesh, PhysicsType::Elasticity, {E, nu});
    BoundaryLoad inside = testing::load_on(mesh, "xmin", BoundaryLoad::Kind::Pressure);
    inside.value = pressure;
    p.loads.push_back(inside);
    const auto ends = testing::nodes_of_groups(mesh, {"ymax"});
    p.dirichlet.push_back({"ymin", testing::nodes_of_groups(mesh, {"ymin"}), {false, true, false}, {}, {}});
    p.dirichlet.push_back({"ymax", ends, {false, true, false}, {}, {}});
    const auto s = testing::solve_direct(p);
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);

    const bool quadratic = e.order == 2;
    const int inner = testing::nearest_node(mesh, a, h / 2), outer = testing::nearest_node(mesh, b, h / 2);
    CHECK(s.value(inner, 0) == doctest::Approx(u_r(a)).epsilon(quadratic ? 0.005 : 0.01));
    CHECK(s.value(outer, 0) == doctest::Approx(u_r(b)).epsilon(quadratic ? 0.005 : 0.01));
    // Hoop stress (the zz slot) at the inner wall, extrapolated from the integration points.
    CHECK(r.stress[6 * inner + 2] == doctest::Approx(A + B / (a * a)).epsilon(quadratic ? 0.01 : 0.03));
    // sigma_z = 2 nu A over the ring's section: the held end pulls with 2 nu pi p a^2 in all.
    CHECK(sum_over(r.reaction, ends, 1, 3) == doctest::Approx(2 * nu * pi * pressure * a * a).epsilon(0.005));
  }
}

TEST_CASE("the axisymmetric thick cylinder equals a 3D quarter of it, and the ring's end force is four quarters'") {
  constexpr double E = 200e9, nu = 0.3, pressure = 100e6;
  const auto solve = [&](Problem& p, const Mesh& mesh, std::vector<std::array<bool, 3>> held) {
    BoundaryLoad inside = testing::load_on(mesh, "xmin", BoundaryLoad::Kind::Pressure);
    inside.value = pressure;
    p.loads.push_back(inside);
    const std::vector<std::string> groups = mesh.dimension == 3 ? std::vector<std::string>{"zmin", "zmax", "ymin", "ymax"}
                                                                : std::vector<std::string>{"ymin", "ymax"};
    for (std::size_t g = 0; g < groups.size(); ++g)
      p.dirichlet.push_back({groups[g], testing::nodes_of_groups(mesh, {groups[g]}), held[g], {}, {}});
    return testing::solve_direct(p);
  };
  // 2D: the section; 3D: the box (r, theta, z) bent into a quarter of the cylinder, held
  // normally on its two cut planes (theta = 0: y = 0, theta = pi/2: x = 0) and its ends.
  const Mesh section = wall({ElementShape::Quadrilateral, 2, true, 4});
  Mesh quarter = make_box_mesh({{b - a, pi / 2, h}, {4, 8, 2}, ElementShape::Hexahedron, 2, true, {a, 0, 0}});
  for (std::size_t n = 0; n < quarter.num_nodes(); ++n) {
    double* x = &quarter.coords[3 * n];
    const double r = x[0], theta = x[1];
    x[0] = r * std::cos(theta), x[1] = r * std::sin(theta);
  }
  Problem axisymmetric = ring(section, PhysicsType::Elasticity, {E, nu});
  const auto s2 = solve(axisymmetric, section, {{false, true, false}, {false, true, false}});
  Problem solid;
  solid.mesh = &quarter;
  solid.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
  solid.materials = {{E, nu}};
  solid.cell_material.assign(quarter.cells.size(), 0);
  const auto s3 = solve(solid, quarter, {{false, false, true}, {false, false, true}, {false, true, false}, {true, false, false}});
  for (double r : {a, (a + b) / 2, b}) {
    CAPTURE(r);
    // On the theta = 0 plane u_r is u_x; halfway round it is the length of (u_x, u_y).
    const int n2 = testing::nearest_node(section, r, h / 2), n3 = testing::nearest_node(quarter, r, 0, h / 2);
    const int n45 = testing::nearest_node(quarter, r * std::cos(pi / 4), r * std::sin(pi / 4), h / 2);
    CHECK(s3.value(n3, 0) == doctest::Approx(s2.value(n2, 0)).epsilon(1e-4));
    CHECK(std::hypot(s3.value(n45, 0), s3.value(n45, 1)) == doctest::Approx(s2.value(n2, 0)).epsilon(1e-4));
  }
  const auto r2 = recover_results(axisymmetric, s2.dofs, s2.constraints, s2.u);
  const auto r3 = recover_results(solid, s3.dofs, s3.constraints, s3.u);
  CHECK(sum_over(r2.reaction, testing::nodes_of_groups(section, {"ymax"}), 1, 3) ==
        doctest::Approx(4 * sum_over(r3.reaction, testing::nodes_of_groups(quarter, {"zmax"}), 2, 3)).epsilon(1e-3));
}

TEST_CASE("a ring heated uniformly and free to grow: u = alpha dT x, no stress, hoop strain alpha dT") {
  constexpr double E = 200e9, nu = 0.3, alpha = 12e-6, T_ref = 20, dT = 100;
  for (const Element& e : kElements) {
    const Mesh mesh = wall({e.shape, e.order, e.serendipity, 4});
    CAPTURE(element_info(mesh.cells.type[0]).name);
    Problem p = ring(mesh, PhysicsType::Elasticity, {E, nu, 0, 0, alpha, T_ref});
    p.temperature.assign(mesh.num_nodes(), T_ref + dT);
    // Axial rigid motion only: the ring is free to grow in r and z.
    p.dirichlet.push_back({"ymin", testing::nodes_of_groups(mesh, {"ymin"}), {false, true, false}, {}, {}});
    const auto s = testing::solve_direct(p);
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      const double* x = &mesh.coords[3 * n];
      CHECK(s.value(static_cast<int>(n), 0) == doctest::Approx(alpha * dT * x[0]).epsilon(1e-8));
      CHECK(s.value(static_cast<int>(n), 1) == doctest::Approx(alpha * dT * x[1]).scale(alpha * dT * h).epsilon(1e-8));
      for (int k = 0; k < 6; ++k) CHECK(std::abs(r.stress[6 * n + k]) < 1e-6 * E * alpha * dT);
      CHECK(r.strain[6 * n + 2] == doctest::Approx(alpha * dT).epsilon(1e-8));
    }
  }
}

TEST_CASE("conduction through a hollow cylinder's wall: T = Ti + (To - Ti) ln(r/a) / ln(b/a), the ring's heat flow") {
  constexpr double k = 45, Ti = 200, To = 20;
  for (const Element& e : kElements) {
    const Mesh mesh = wall(e);
    CAPTURE(element_info(mesh.cells.type[0]).name);
    Problem p = ring(mesh, PhysicsType::Heat, {0, 0, 0, k});
    const auto inside = testing::nodes_of_groups(mesh, {"xmin"});
    p.dirichlet.push_back({"xmin", inside, {true, false, false}, {Ti, 0, 0}, {}});
    p.dirichlet.push_back({"xmax", testing::nodes_of_groups(mesh, {"xmax"}), {true, false, false}, {To, 0, 0}, {}});
    const auto s = testing::solve_direct(p);
    double worst = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      const double exact = Ti + (To - Ti) * std::log(mesh.coords[3 * n] / a) / std::log(b / a);
      worst = std::max(worst, std::abs(s.value(static_cast<int>(n), 0) - exact));
    }
    CHECK(worst < (e.order == 2 ? 1e-4 : 1e-3) * (Ti - To));
    // The heat that flows in at the inner wall, through the full ring: 2 pi k h (Ti - To) / ln(b/a).
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);
    CHECK(sum_over(r.reaction, inside, 0, 1) == doctest::Approx(2 * pi * k * h * (Ti - To) / std::log(b / a)).epsilon(e.order == 2 ? 1e-4 : 1e-3));
  }
}

TEST_CASE("the mass and heat capacity of the full ring: rho pi (b^2 - a^2) h, consistent and lumped") {
  constexpr double rho = 7800, c = 460;
  for (const Element& e : kElements) {
    const Mesh mesh = wall(e);
    CAPTURE(element_info(mesh.cells.type[0]).name);
    for (auto type : {PhysicsType::Elasticity, PhysicsType::Heat})
      for (auto lumping : {MassLumping::Consistent, MassLumping::Lumped}) {
        IsotropicMaterial m{200e9, 0.3, rho, 45};
        m.specific_heat = c;
        const Problem p = ring(mesh, type, m);
        const int d = p.physics.dofs_per_node();
        ElementBuffers buffers;
        double total = 0;  // of the first component: each component carries the whole mass
        for (std::size_t cell = 0; cell < mesh.cells.size(); ++cell) {
          cell_mass(p, cell, lumping, buffers);
          const auto nd = static_cast<std::size_t>(element_info(mesh.cells.type[cell]).num_nodes * d);
          for (std::size_t i = 0; i < nd; i += d)
            for (std::size_t j = 0; j < nd; j += d) total += buffers.matrix[i * nd + j];
        }
        const double expected = (type == PhysicsType::Heat ? rho * c : rho) * pi * (b * b - a * a) * h;
        CHECK(total == doctest::Approx(expected).epsilon(1e-12));
      }
  }
}

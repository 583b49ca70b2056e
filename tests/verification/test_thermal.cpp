// Thermal strain against the closed forms: a body held on every side is stressed by
// -E alpha dT / (1 - 2 nu) (plane stress: / (1 - nu)), a body free to expand is not stressed
// and grows by alpha dT L (plane strain: (1 + nu) alpha dT L), and a linear temperature field,
// solved as a heat problem on the same mesh, expands a free bar without bending it.
#include <doctest/doctest.h>

#include <cmath>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/problem.hpp"
#include "tests/support/solve.hpp"

using namespace fem;

namespace {

constexpr double E = 200e9, nu = 0.3, alpha = 12e-6, T_ref = 20, T = 120, dT = T - T_ref;

Problem heated(const Mesh& mesh, ElasticModel model) {
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, model, 0.1, mesh.dimension};
  p.materials = {{E, nu, 0, 0, alpha, T_ref}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.temperature.assign(mesh.num_nodes(), T);
  return p;
}

// Every component of every node on the box's faces held.
void hold_every_face(Problem& p) {
  const std::vector<std::string> faces = p.mesh->dimension == 3
                                             ? std::vector<std::string>{"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"}
                                             : std::vector<std::string>{"xmin", "xmax", "ymin", "ymax"};
  p.dirichlet.push_back({"faces", testing::nodes_of_groups(*p.mesh, faces), {true, true, true}, {}, {}});
}

// Only the rigid-body motions held (3-2-1 at the corners of a box from the origin to `size`),
// with the prescribed values of `exact` there.
void hold_rigid_motion(Problem& p, const std::vector<double>& size, const PointFunction& exact = {}) {
  const Mesh& mesh = *p.mesh;
  const bool is3d = mesh.dimension == 3;
  const auto at = [&](double x, double y, double z, std::array<bool, 3> c, const char* name) {
    p.dirichlet.push_back({name, {testing::nearest_node(mesh, x, y, z)}, c, {}, exact});
  };
  at(0, 0, 0, {true, true, is3d}, "origin");
  at(size[0], 0, 0, {false, true, is3d}, "x end");
  if (is3d) at(0, size[1], 0, {false, false, true}, "y end");
}

double max_abs_stress(const NodalResults& r) {
  double m = 0;
  for (double s : r.stress) m = std::max(m, std::abs(s));
  return m;
}

}  // namespace

TEST_CASE("a heated body held on every side: sigma = -E alpha dT / (1 - 2 nu) on every normal component") {
  for (auto shape : {ElementShape::Hexahedron, ElementShape::Tetrahedron})
    for (int order : {1, 2}) {
      const Mesh mesh = make_box_mesh({{1, 1, 1}, {3, 3, 3}, shape, order, false});
      CAPTURE(element_info(mesh.cells.type[0]).name);
      Problem p = heated(mesh, ElasticModel::Solid3D);
      hold_every_face(p);
      const auto s = testing::solve(p);
      const auto r = recover_results(p, s.dofs, s.constraints, s.u);
      const double expected = -E * alpha * dT / (1 - 2 * nu);
      for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
        for (int k = 0; k < 3; ++k) CHECK(r.stress[6 * n + k] == doctest::Approx(expected).epsilon(1e-8));
        for (int k = 3; k < 6; ++k) CHECK(std::abs(r.stress[6 * n + k]) < 1e-8 * std::abs(expected));
        CHECK(r.von_mises[n] < 1e-8 * std::abs(expected));
      }
    }
}

TEST_CASE("a heated bar free to expand is not stressed and grows by alpha dT L") {
  const std::vector<double> size{2, 0.5, 0.25};
  for (auto shape : {ElementShape::Hexahedron, ElementShape::Tetrahedron}) {
    const Mesh mesh = make_box_mesh({size, {6, 2, 2}, shape, 2, false});
    CAPTURE(element_info(mesh.cells.type[0]).name);
    Problem p = heated(mesh, ElasticModel::Solid3D);
    hold_rigid_motion(p, size);
    const auto s = testing::solve(p);
    const auto r = recover_results(p, s.dofs, s.constraints, s.u);
    CHECK(max_abs_stress(r) < 1e-6 * E * alpha * dT);
    const int corner = testing::nearest_node(mesh, size[0], size[1], size[2]);
    for (int k = 0; k < 3; ++k) CHECK(s.value(corner, k) == doctest::Approx(alpha * dT * size[k]).epsilon(1e-8));
    for (const auto& [group, force] : r.group_reactions)
      for (double f : force) CHECK(std::abs(f) < 1e-6 * E * alpha * dT * size[1] * size[2]);
  }
}

TEST_CASE("2D: plane strain holds the expansion out of the plane, plane stress lets it go") {
  const std::vector<double> size{2, 1};
  const double held_plane_strain = -E * alpha * dT / (1 - 2 * nu), held_plane_stress = -E * alpha * dT / (1 - nu);
  for (auto shape : {ElementShape::Quadrilateral, ElementShape::Triangle})
    for (auto model : {ElasticModel::PlaneStrain, ElasticModel::PlaneStress}) {
      const Mesh mesh = make_box_mesh({size, {4, 2}, shape, 2, false});
      const bool strain = model == ElasticModel::PlaneStrain;
      CAPTURE(element_info(mesh.cells.type[0]).name);
      CAPTURE(strain);
      {  // held on every edge: the in-plane stresses, and sigma_zz for plane strain, are the closed form
        Problem p = heated(mesh, model);
        hold_every_face(p);
        const auto s = testing::solve(p);
        const auto r = recover_results(p, s.dofs, s.constraints, s.u);
        const double expected = strain ? held_plane_strain : held_plane_stress;
        for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
          CHECK(r.stress[6 * n] == doctest::Approx(expected).epsilon(1e-8));
          CHECK(r.stress[6 * n + 1] == doctest::Approx(expected).epsilon(1e-8));
          CHECK(r.stress[6 * n + 2] == doctest::Approx(strain ? held_plane_strain : 0.0).epsilon(1e-8));
        }
      }
      {  // free: unstressed in the plane, grows by (1 + nu) alpha dT (plane strain) or alpha dT
        Problem p = heated(mesh, model);
        hold_rigid_motion(p, size);
        const auto s = testing::solve(p);
        const auto r = recover_results(p, s.dofs, s.constraints, s.u);
        const double growth = (strain ? 1 + nu : 1.0) * alpha * dT;
        const int corner = testing::nearest_node(mesh, size[0], size[1]);
        CHECK(s.value(corner, 0) == doctest::Approx(growth * size[0]).epsilon(1e-8));
        CHECK(s.value(corner, 1) == doctest::Approx(growth * size[1]).epsilon(1e-8));
        for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
          for (int k : {0, 1, 3}) CHECK(std::abs(r.stress[6 * n + k]) < 1e-6 * E * alpha * dT);
          // plane strain: eps_zz = 0 leaves sigma_zz = -E alpha dT; plane stress: eps_zz = alpha dT
          if (strain) CHECK(r.stress[6 * n + 2] == doctest::Approx(-E * alpha * dT).epsilon(1e-6));
          else CHECK(r.strain[6 * n + 2] == doctest::Approx(alpha * dT).epsilon(1e-6));
        }
      }
    }
}

TEST_CASE("a linear temperature, solved as heat on the same mesh, expands a free bar without bending it") {
  // T = T0 + g x in a bar free of stress: eps = alpha (T - T_ref) I is compatible, with
  // u_x = alpha (a x + g x^2 / 2) - alpha g (y^2 + z^2) / 2, u_y = alpha (a + g x) y,
  // u_z = alpha (a + g x) z (a = T0 - T_ref): the axis stays straight.
  const std::vector<double> size{2, 0.4, 0.3};
  const double T0 = 20, T1 = 220, g = (T1 - T0) / size[0], a = T0 - T_ref;
  const PointFunction exact = [&](const double* x, double* u) {
    u[0] = alpha * (a * x[0] + g * x[0] * x[0] / 2) - alpha * g * (x[1] * x[1] + x[2] * x[2]) / 2;
    u[1] = alpha * (a + g * x[0]) * x[1];
    u[2] = alpha * (a + g * x[0]) * x[2];
  };
  const Mesh mesh = make_box_mesh({size, {8, 2, 2}, ElementShape::Hexahedron, 2, false});

  Problem heat;
  heat.mesh = &mesh;
  heat.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, 3};
  heat.materials = {{0, 0, 0, 45}};
  heat.cell_material.assign(mesh.cells.size(), 0);
  heat.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, false, false}, {T0, 0, 0}, {}});
  heat.dirichlet.push_back({"xmax", testing::nodes_of_groups(mesh, {"xmax"}), {true, false, false}, {T1, 0, 0}, {}});
  const auto h = testing::solve(heat);
  const auto temperature = recover_results(heat, h.dofs, h.constraints, h.u).temperature;

  Problem p = heated(mesh, ElasticModel::Solid3D);
  p.temperature.assign(temperature.begin(), temperature.end());
  hold_rigid_motion(p, size, exact);
  const auto s = testing::solve(p);
  const auto r = recover_results(p, s.dofs, s.constraints, s.u);
  CHECK(max_abs_stress(r) < 1e-6 * E * alpha * (T1 - T_ref));
  double worst = 0;
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    double u[3];
    exact(&mesh.coords[3 * n], u);
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(s.value(static_cast<int>(n), k) - u[k]));
  }
  CHECK(worst < 1e-9 * alpha * (T1 - T_ref) * size[0]);
}

// Manufactured solutions: the L2 error must fall like h^(p+1) under uniform refinement.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "fem/mesh/box_mesh.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using std::numbers::pi;

namespace {

std::vector<std::string> outer_faces(int dim) {
  std::vector<std::string> faces = {"xmin", "xmax", "ymin", "ymax"};
  if (dim == 3) faces.insert(faces.end(), {"zmin", "zmax"});
  return faces;
}

// Rates between successive meshes of n, 2n, 4n cells per side.
std::vector<double> rates(ElementShape shape, int order, int n0, const std::function<double(const Mesh&)>& error) {
  std::vector<double> errors;
  for (int n = n0; n <= 4 * n0; n *= 2) {
    BoxSpec spec;
    const bool is3d = shape == ElementShape::Tetrahedron || shape == ElementShape::Hexahedron;
    spec.size = is3d ? std::vector<double>{1, 1, 1} : std::vector<double>{1, 1};
    spec.divisions = std::vector<int>(spec.size.size(), n);
    spec.shape = shape;
    spec.order = order;
    errors.push_back(error(make_box_mesh(spec)));
  }
  MESSAGE("L2 errors " << errors[0] << " " << errors[1] << " " << errors[2]);
  return {std::log2(errors[0] / errors[1]), std::log2(errors[1] / errors[2])};
}

// Heat: T = sin(pi x) sin(pi y) + x y, -k lap T = 2 pi^2 k sin sin.
double heat_error(const Mesh& mesh) {
  const double k = 3.0;
  auto exact = [](const double* x, double* t) { t[0] = std::sin(pi * x[0]) * std::sin(pi * x[1]) + x[0] * x[1]; };
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, 2};
  p.materials = {{0, 0, 0, k}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.body = [k](const double* x, double* f) { f[0] = 2 * pi * pi * k * std::sin(pi * x[0]) * std::sin(pi * x[1]); };
  p.dirichlet.push_back({"outer", testing::nodes_of_groups(mesh, outer_faces(2)), {true, false, false}, {}, exact});
  return testing::l2_error(p, testing::solve(p), exact);
}

// Plane strain elasticity: u_x = u_y = sin(pi x) sin(pi y) + 0.1 x, b = -div sigma.
double elasticity_error(const Mesh& mesh) {
  const double E = 1000, nu = 0.25;
  const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
  auto exact = [](const double* x, double* u) {
    u[0] = u[1] = std::sin(pi * x[0]) * std::sin(pi * x[1]) + 0.1 * x[0];
  };
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, ElasticModel::PlaneStrain, 1.0, 2};
  p.materials = {{E, nu, 0, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.body = [=](const double* x, double* b) {
    const double s = std::sin(pi * x[0]) * std::sin(pi * x[1]), c = std::cos(pi * x[0]) * std::cos(pi * x[1]);
    // -(mu lap u + (lambda + mu) grad div u); the linear term contributes nothing
    b[0] = b[1] = -(mu * (-2 * pi * pi * s) + (lambda + mu) * (pi * pi * c - pi * pi * s));
  };
  p.dirichlet.push_back({"outer", testing::nodes_of_groups(mesh, outer_faces(2)), {true, true, false}, {}, exact});
  return testing::l2_error(p, testing::solve(p), exact);
}

// 3D heat on tetrahedra and hexahedra: T = sin(pi x) sin(pi y) sin(pi z), -lap T = 3 pi^2 T.
double heat3d_error(const Mesh& mesh) {
  auto exact = [](const double* x, double* t) { t[0] = std::sin(pi * x[0]) * std::sin(pi * x[1]) * std::sin(pi * x[2]); };
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, 3};
  p.materials = {{0, 0, 0, 1.0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.body = [&](const double* x, double* f) {
    exact(x, f);
    f[0] *= 3 * pi * pi;
  };
  p.dirichlet.push_back({"outer", testing::nodes_of_groups(mesh, outer_faces(3)), {true, false, false}, {}, exact});
  return testing::l2_error(p, testing::solve(p), exact);
}

// Linear and quadratic elements of each shape: the finest rate within `slack` below p+1.
void check_rates(const char* what, std::initializer_list<ElementShape> shapes, int n0, double slack,
                 const std::function<double(const Mesh&)>& error) {
  for (auto shape : shapes)
    for (int order : {1, 2}) {
      CAPTURE(static_cast<int>(shape));
      CAPTURE(order);
      const auto r = rates(shape, order, n0, error);
      MESSAGE(what << " order " << order << ": rates " << r[0] << ", " << r[1]);
      CHECK(r[1] > order + 1 - slack);
      CHECK(r[1] < order + 1 + 0.3);
    }
}

}  // namespace

TEST_CASE("manufactured heat solution converges at rate p+1 in 2D") {
  check_rates("heat 2D", {ElementShape::Triangle, ElementShape::Quadrilateral}, 4, 0.15, heat_error);
}

TEST_CASE("manufactured elasticity solution converges at rate p+1 in 2D") {
  check_rates("elasticity 2D", {ElementShape::Triangle, ElementShape::Quadrilateral}, 4, 0.15, elasticity_error);
}

TEST_CASE("manufactured heat solution converges at rate p+1 in 3D") {
  check_rates("heat 3D", {ElementShape::Tetrahedron, ElementShape::Hexahedron}, 2, 0.25, heat3d_error);
}

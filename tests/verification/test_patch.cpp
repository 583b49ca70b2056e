// Patch tests: on a mesh of distorted elements, a displacement (or temperature) field that is
// linear in x must be reproduced exactly, and its stress recovered exactly, by every element type.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "fem/mesh/box_mesh.hpp"
#include "tests/support/solve.hpp"

using namespace fem;

namespace {

struct ElementCase {
  ElementShape shape;
  int order;
  bool serendipity;
  const char* name;
};

const ElementCase kCases[] = {
    {ElementShape::Triangle, 1, false, "tri3"},      {ElementShape::Triangle, 2, false, "tri6"},
    {ElementShape::Quadrilateral, 1, false, "quad4"}, {ElementShape::Quadrilateral, 2, true, "quad8"},
    {ElementShape::Quadrilateral, 2, false, "quad9"}, {ElementShape::Tetrahedron, 1, false, "tet4"},
    {ElementShape::Tetrahedron, 2, false, "tet10"},  {ElementShape::Hexahedron, 1, false, "hex8"},
    {ElementShape::Hexahedron, 2, true, "hex20"},     {ElementShape::Hexahedron, 2, false, "hex27"},
};

// A 3x3(x3) box whose interior nodes are moved at random, so no element is a parallelogram.
Mesh distorted_box(const ElementCase& ec, unsigned seed) {
  const bool is3d = ec.shape == ElementShape::Tetrahedron || ec.shape == ElementShape::Hexahedron;
  BoxSpec spec;
  spec.size = is3d ? std::vector<double>{1.0, 1.2, 0.9} : std::vector<double>{1.0, 1.2};
  spec.divisions = is3d ? std::vector<int>{3, 3, 3} : std::vector<int>{3, 3};
  spec.shape = ec.shape;
  spec.order = ec.order;
  spec.serendipity = ec.serendipity;
  Mesh mesh = make_box_mesh(spec);
  std::mt19937 rng(seed);
  // well under half a node spacing (1/3 per cell, halved again for quadratic elements)
  const double amplitude = 0.06 / ec.order;
  std::uniform_real_distribution<double> jitter(-amplitude, amplitude);
  const int dim = mesh.dimension;
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    bool interior = true;
    for (int k = 0; k < dim; ++k) {
      const double x = mesh.coords[3 * n + k];
      interior = interior && x > 1e-9 && x < spec.size[k] - 1e-9;
    }
    if (interior)
      for (int k = 0; k < dim; ++k) mesh.coords[3 * n + k] += jitter(rng);
  }
  return mesh;
}

std::vector<std::string> outer_faces(int dim) {
  std::vector<std::string> faces = {"xmin", "xmax", "ymin", "ymax"};
  if (dim == 3) faces.insert(faces.end(), {"zmin", "zmax"});
  return faces;
}

}  // namespace

TEST_CASE("patch test: elasticity reproduces a linear displacement and its constant stress") {
  for (const auto& ec : kCases) {
    CAPTURE(ec.name);
    const Mesh mesh = distorted_box(ec, 7);
    REQUIRE(element_info(mesh.cells.type[0]).name == ec.name);
    const int dim = mesh.dimension;
    // u_i = b_i + A_ij x_j, with a non-symmetric A (a strain plus a rotation)
    const double A[3][3] = {{1e-3, 4e-4, -2e-4}, {-3e-4, 2e-3, 5e-4}, {6e-4, -1e-4, -1.5e-3}};
    const double b[3] = {0.01, -0.02, 0.005};
    auto exact = [&](const double* x, double* u) {
      for (int i = 0; i < 3; ++i) {
        u[i] = i < dim ? b[i] : 0.0;
        for (int j = 0; j < dim && i < dim; ++j) u[i] += A[i][j] * x[j];
      }
    };
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 0.7, dim};
    p.materials = {{200e9, 0.3, 7800, 0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.dirichlet.push_back({"outer", testing::nodes_of_groups(mesh, outer_faces(dim)), {true, true, dim == 3}, {}, exact});
    const auto s = testing::solve(p, 1e-15);
    double worst = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      double u[3];
      exact(&mesh.coords[3 * n], u);
      for (int c = 0; c < dim; ++c) worst = std::max(worst, std::abs(s.value(static_cast<int>(n), c) - u[c]));
    }
    CHECK(worst < 1e-10 * 0.03);  // relative to the largest displacement (~0.03)

    const auto results = recover_results(p, s.dofs, s.constraints, s.u);
    double sxx_expected = 0;
    {
      const double E = 200e9, nu = 0.3;
      if (dim == 2) sxx_expected = E / (1 - nu * nu) * (A[0][0] + nu * A[1][1]);
      else {
        const double lambda = E * nu / ((1 + nu) * (1 - 2 * nu)), mu = E / (2 * (1 + nu));
        sxx_expected = lambda * (A[0][0] + A[1][1] + A[2][2]) + 2 * mu * A[0][0];
      }
    }
    double stress_error = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
      stress_error = std::max(stress_error, std::abs(results.stress[6 * n] - sxx_expected));
    CHECK(stress_error < 1e-8 * std::abs(sxx_expected));
  }
}

TEST_CASE("patch test: heat conduction reproduces a linear temperature and its constant flux") {
  for (const auto& ec : kCases) {
    CAPTURE(ec.name);
    const Mesh mesh = distorted_box(ec, 11);
    const int dim = mesh.dimension;
    auto exact = [&](const double* x, double* t) { t[0] = 20 + 3 * x[0] - 5 * x[1] + (dim == 3 ? 2 * x[2] : 0); };
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, dim};
    p.materials = {{0, 0, 0, 45.0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.dirichlet.push_back({"outer", testing::nodes_of_groups(mesh, outer_faces(dim)), {true, false, false}, {}, exact});
    const auto s = testing::solve(p, 1e-15);
    double worst = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      double t;
      exact(&mesh.coords[3 * n], &t);
      worst = std::max(worst, std::abs(s.value(static_cast<int>(n), 0) - t));
    }
    CHECK(worst < 1e-10 * 20);
    const auto results = recover_results(p, s.dofs, s.constraints, s.u);
    for (std::size_t n = 0; n < mesh.num_nodes(); n += 7) {
      CHECK(results.heat_flux[3 * n] == doctest::Approx(-45.0 * 3).epsilon(1e-9));
      CHECK(results.heat_flux[3 * n + 1] == doctest::Approx(45.0 * 5).epsilon(1e-9));
    }
  }
}

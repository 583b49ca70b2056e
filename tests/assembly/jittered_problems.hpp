#pragma once
// The inputs the assembly tests share: small boxes of every element type with their inner nodes
// moved at random (cells that are not affine), and a problem on them with loads (gravity, a heat
// source) and nonzero prescribed values on xmin (the lifting).
#include <array>
#include <random>
#include <vector>

#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/problem.hpp"
#include "tests/support/solve.hpp"

namespace fem::testing {

struct Shape {
  ElementShape shape;
  int order;
  bool serendipity;
};

inline Mesh jittered_box(int dim, const Shape& s) {
  BoxSpec spec;
  spec.size = dim == 3 ? std::vector<double>{1.0, 0.8, 0.6} : std::vector<double>{1.0, 0.8};
  spec.divisions = dim == 3 ? std::vector<int>{3, 2, 2} : std::vector<int>{4, 3};
  spec.shape = s.shape;
  spec.order = s.order;
  spec.serendipity = s.serendipity;
  spec.origin = dim == 3 ? std::vector<double>{0.5, 0, 0} : std::vector<double>{0.5, 0};  // r > 0 (axisymmetric)
  Mesh mesh = make_box_mesh(spec);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.03, 0.03);
  for (double& x : mesh.coords) x += x == 0 ? 0.0 : jitter(rng) * 0.5;
  return mesh;
}

// `fixed`: the components prescribed on xmin (values 1e-3, -2e-3, 5e-4).
inline Problem problem_on(const Mesh& mesh, PhysicsType type, ElasticModel model,
                          std::array<bool, 3> fixed = {true, true, true}) {
  Problem p;
  p.mesh = &mesh;
  p.physics = {type, model, 0.2, mesh.dimension};
  p.materials = {{210e9, 0.3, 7850, 45}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.gravity = {0, -9.81, 0};
  p.source = 1e4;
  p.dirichlet.push_back({"xmin", nodes_of_groups(mesh, {"xmin"}), fixed, {1e-3, -2e-3, 5e-4}, {}});
  return p;
}

}  // namespace fem::testing

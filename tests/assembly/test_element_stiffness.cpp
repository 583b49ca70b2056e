// The element stiffness in closed form (tabulated shapes, node-pair sums) against the generic
// B^T D B (and k B^T B) written out here, point by point, on distorted non-affine cells of every
// element type, for 3D, plane stress, plane strain and axisymmetric elasticity and for heat.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/physics/material_law.hpp"

using namespace fem;

namespace {

// One cell of `type`: its reference nodes through an affine map, each node then moved at random
// (a non-affine cell), shifted to x >= 1 so that an axisymmetric radius stays positive.
Mesh distorted_cell(ElementType type, unsigned seed) {
  const auto& info = element_info(type);
  const int dim = info.dimension;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.07, 0.07);
  const double A[3][3] = {{1.1, 0.2, -0.1}, {-0.15, 0.9, 0.1}, {0.05, 0.1, 1.3}};
  const auto ref = reference_nodes(type);
  Mesh mesh;
  mesh.dimension = dim;
  std::vector<int> nodes;
  for (int a = 0; a < info.num_nodes; ++a) {
    for (int k = 0; k < 3; ++k) {
      double x = k < dim ? 2.0 : 0.0;
      for (int j = 0; j < dim; ++j) x += (k < dim ? A[k][j] : 0.0) * ref[a * dim + j];
      mesh.coords.push_back(k < dim ? x + jitter(rng) : 0.0);
    }
    nodes.push_back(a);
  }
  mesh.cells.add(type, nodes);
  mesh.source = "test";
  return mesh;
}

// B for node a at a point: voigt_size rows (the order of material_law.hpp), d columns.
std::vector<double> b_matrix(ElasticModel model, const VolumePoint& vp, int a) {
  const double* g = &vp.dNdx[3 * a];
  if (model == ElasticModel::Solid3D)
    return {g[0], 0, 0, 0, g[1], 0, 0, 0, g[2], g[1], g[0], 0, 0, g[2], g[1], g[2], 0, g[0]};
  if (model == ElasticModel::Axisymmetric) return {g[0], 0, 0, g[1], vp.N[a] / vp.x[0], 0, g[1], g[0]};
  return {g[0], 0, 0, g[1], g[1], g[0]};
}

// The generic element matrix: sum over points of w B_a^T D B_b (elasticity) or w k g_a . g_b.
std::vector<double> reference_matrix(const Problem& p) {
  const Mesh& mesh = *p.mesh;
  const ElementType type = mesh.cells.type[0];
  const auto& info = element_info(type);
  const int n = info.num_nodes, d = p.physics.dofs_per_node(), nd = n * d;
  const IsotropicMaterial& m = p.materials[0];
  const bool elastic = p.physics.type == PhysicsType::Elasticity;
  const int v = elastic ? voigt_size(p.physics.model) : 0;
  std::vector<double> D(static_cast<std::size_t>(std::max(v, 1) * std::max(v, 1)));
  if (elastic) elasticity_matrix(p.physics.model, m, D.data());
  std::vector<double> K(static_cast<std::size_t>(nd) * nd, 0.0);
  for (const auto& q : quadrature_rule(info.shape, stiffness_quadrature_degree(type))) {
    const VolumePoint vp = map_volume_point(type, mesh.coords, p.physics.space_dim, q.xi.data());
    const double w = q.weight * std::abs(vp.detJ) * p.physics.out_of_plane(vp.x);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (!elastic) {
          double s = 0;
          for (int k = 0; k < 3; ++k) s += vp.dNdx[3 * a + k] * vp.dNdx[3 * b + k];
          K[static_cast<std::size_t>(a) * nd + b] += w * m.k * s;
          continue;
        }
        const auto Ba = b_matrix(p.physics.model, vp, a), Bb = b_matrix(p.physics.model, vp, b);
        for (int i = 0; i < d; ++i)
          for (int j = 0; j < d; ++j) {
            double s = 0;
            for (int r = 0; r < v; ++r)
              for (int c = 0; c < v; ++c) s += Ba[r * d + i] * D[r * v + c] * Bb[c * d + j];
            K[static_cast<std::size_t>(a * d + i) * nd + b * d + j] += w * s;
          }
      }
  }
  return K;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(b[k]));
  }
  return diff / scale;
}

void check_every_type(PhysicsType physics, ElasticModel model, int dim) {
  const ElementType types2d[] = {ElementType::Tri3, ElementType::Tri6, ElementType::Quad4, ElementType::Quad8,
                                 ElementType::Quad9};
  const ElementType types3d[] = {ElementType::Tet4,  ElementType::Tet10, ElementType::Hex8,
                                 ElementType::Hex20, ElementType::Hex27};
  for (const ElementType type : dim == 2 ? types2d : types3d)
    for (unsigned seed = 1; seed <= 3; ++seed) {
      CAPTURE(element_info(type).name);
      CAPTURE(seed);
      const Mesh mesh = distorted_cell(type, seed);
      Problem p;
      p.mesh = &mesh;
      p.physics = {physics, model, 0.3, dim};
      p.materials = {{210e9, 0.3, 7850, 45}};
      p.cell_material = {0};
      ElementBuffers out;
      cell_contribution(p, 0, out);
      const auto reference = reference_matrix(p);
      REQUIRE(out.matrix.size() == reference.size());
      CHECK(relative_difference(out.matrix, reference) <= 1e-13);
    }
}

}  // namespace

TEST_CASE("closed-form elasticity equals B^T D B on distorted cells of every type") {
  SUBCASE("3D") { check_every_type(PhysicsType::Elasticity, ElasticModel::Solid3D, 3); }
  SUBCASE("plane stress") { check_every_type(PhysicsType::Elasticity, ElasticModel::PlaneStress, 2); }
  SUBCASE("plane strain") { check_every_type(PhysicsType::Elasticity, ElasticModel::PlaneStrain, 2); }
  SUBCASE("axisymmetric") { check_every_type(PhysicsType::Elasticity, ElasticModel::Axisymmetric, 2); }
}

TEST_CASE("closed-form conduction equals k B^T B on distorted cells of every type") {
  SUBCASE("3D") { check_every_type(PhysicsType::Heat, ElasticModel::Solid3D, 3); }
  SUBCASE("2D") { check_every_type(PhysicsType::Heat, ElasticModel::PlaneStress, 2); }
  SUBCASE("axisymmetric") { check_every_type(PhysicsType::Heat, ElasticModel::Axisymmetric, 2); }
}

TEST_CASE("a folded cell is refused with its number") {
  Mesh mesh = distorted_cell(ElementType::Hex8, 1);
  for (int a = 0; a < 4; ++a) std::swap(mesh.coords[3 * a + 2], mesh.coords[3 * (a + 4) + 2]);
  Problem p;
  p.mesh = &mesh;
  p.materials = {{210e9, 0.3, 7850, 45}};
  p.cell_material = {0};
  ElementBuffers out;
  CHECK_THROWS_AS(cell_contribution(p, 0, out), InvertedElement);
}

// recover_results against a deliberately simple serial reference: each cell's integration-point
// gradients fitted by least squares with the linear shape functions and evaluated at its nodes,
// summed node by node and averaged; reactions K u - f from every element's matrix, in element
// order. On distorted 2D and 3D meshes, linear and quadratic, elasticity and heat, all cells and
// parts of them, with a smooth field that is zero nowhere in particular.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <string>

#include "fem/assembly/element_system.hpp"
#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/post/nodal_results.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using fem::testing::load_on;

namespace {

struct Reference {
  std::vector<double> strain, stress, heat_flux;  // per node 6, 6, 3
  std::vector<double> reaction;                   // per node 3 (elasticity) or 1 (heat)
  std::array<double, 3> applied_load{};
};

// Solves the small dense system A x = b (n x n, row-major) by Gaussian elimination with pivoting.
std::vector<double> solve_dense(std::vector<double> A, std::vector<double> b) {
  const int n = static_cast<int>(b.size());
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int r = col + 1; r < n; ++r)
      if (std::abs(A[r * n + col]) > std::abs(A[pivot * n + col])) pivot = r;
    for (int j = 0; j < n; ++j) std::swap(A[col * n + j], A[pivot * n + j]);
    std::swap(b[col], b[pivot]);
    for (int r = col + 1; r < n; ++r) {
      const double f = A[r * n + col] / A[col * n + col];
      for (int j = col; j < n; ++j) A[r * n + j] -= f * A[col * n + j];
      b[r] -= f * b[col];
    }
  }
  std::vector<double> x(n);
  for (int r = n - 1; r >= 0; --r) {
    double s = b[r];
    for (int j = r + 1; j < n; ++j) s -= A[r * n + j] * x[j];
    x[r] = s / A[r * n + r];
  }
  return x;
}

// Strain (engineering shear) and stress from the full 3D strain tensor and the 3D Lame law;
// plane stress sets eps_zz so that sigma_zz vanishes, plane strain sets it to zero.
void elastic_point(const Problem& p, const IsotropicMaterial& m, const double H[3][3], double* strain, double* stress) {
  double eps[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) eps[i][j] = 0.5 * (H[i][j] + H[j][i]);
  if (p.physics.model == ElasticModel::PlaneStress) eps[2][2] = -m.nu / (1 - m.nu) * (eps[0][0] + eps[1][1]);
  const double lambda = m.E * m.nu / ((1 + m.nu) * (1 - 2 * m.nu)), mu = m.E / (2 * (1 + m.nu));
  const double trace = eps[0][0] + eps[1][1] + eps[2][2];
  const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {0, 2}};
  for (int k = 0; k < 6; ++k) {
    const int i = pairs[k][0], j = pairs[k][1];
    strain[k] = (i == j ? 1.0 : 2.0) * eps[i][j];
    stress[k] = 2 * mu * eps[i][j] + (i == j ? lambda * trace : 0.0);
  }
}

Reference reference_results(const Problem& p, const DofMap& dofs, const Constraints& constraints, const std::vector<double>& u,
                            const std::vector<std::size_t>& cells) {
  const Mesh& mesh = *p.mesh;
  const std::size_t nn = mesh.num_nodes();
  const int d = dofs.dofs_per_node, dim = p.physics.space_dim;
  const bool elastic = p.physics.type == PhysicsType::Elasticity;
  const int width = elastic ? 12 : 3;
  std::vector<double> sum(nn * width, 0.0);
  std::vector<int> count(nn, 0);
  for (std::size_t e : cells) {
    const ElementType type = mesh.cells.type[e];
    const auto& info = element_info(type);
    const auto nodes = mesh.cells.nodes_of(e);
    std::vector<double> coords;
    gather_coords(mesh, nodes, coords);
    const IsotropicMaterial& m = p.materials[p.cell_material[e]];
    const auto& rule = quadrature_rule(info.shape, stiffness_quadrature_degree(type));
    const ElementType linear = element_type_for(info.shape, 1);
    const int ng = static_cast<int>(rule.size()), nv = info.num_vertices;
    std::vector<double> q(ng * width, 0.0), G(ng * nv);
    for (int g = 0; g < ng; ++g) {
      shape_functions(linear, rule[g].xi.data(), &G[g * nv]);
      const VolumePoint vp = map_volume_point(type, coords, dim, rule[g].xi.data());
      double H[3][3] = {};
      for (int a = 0; a < info.num_nodes; ++a)
        for (int i = 0; i < d; ++i)
          for (int j = 0; j < dim; ++j) H[i][j] += u[dofs.dof(nodes[a], i)] * vp.dNdx[3 * a + j];
      if (elastic) elastic_point(p, m, H, &q[g * width], &q[g * width + 6]);
      else
        for (int j = 0; j < dim; ++j) q[g * width + j] = -m.k * H[0][j];
    }
    // Per component: the linear field c closest to the point values, then its value at each node.
    std::vector<double> A(nv * nv, 0.0);
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j < nv; ++j)
        for (int g = 0; g < ng; ++g) A[i * nv + j] += G[g * nv + i] * G[g * nv + j];
    const auto ref = reference_nodes(type);
    for (int k = 0; k < width; ++k) {
      std::vector<double> rhs(nv, 0.0);
      for (int i = 0; i < nv; ++i)
        for (int g = 0; g < ng; ++g) rhs[i] += G[g * nv + i] * q[g * width + k];
      const auto c = solve_dense(A, rhs);
      for (int a = 0; a < info.num_nodes; ++a) {
        std::vector<double> N(nv);
        shape_functions(linear, &ref[a * info.dimension], N.data());
        sum[nodes[a] * width + k] += std::inner_product(N.begin(), N.end(), c.begin(), 0.0);
      }
    }
    for (int n : nodes) ++count[n];
  }
  for (std::size_t n = 0; n < nn; ++n)
    for (int k = 0; k < width; ++k)
      if (count[n]) sum[n * width + k] /= count[n];

  Reference r;
  for (std::size_t n = 0; n < nn; ++n) {
    auto& first = elastic ? r.strain : r.heat_flux;
    first.insert(first.end(), &sum[n * width], &sum[n * width] + (elastic ? 6 : 3));
    if (elastic) r.stress.insert(r.stress.end(), &sum[n * width + 6], &sum[n * width + 12]);
  }

  std::vector<double> residual(dofs.num_dofs(), 0.0);
  ElementBuffers b;
  auto add = [&](std::span<const int> nodes) {
    const int nd = static_cast<int>(nodes.size()) * d;
    for (int i = 0; i < nd; ++i) {
      const auto row = dofs.dof(nodes[i / d], i % d);
      double ku = 0;
      for (int j = 0; j < nd; ++j) ku += b.matrix[i * nd + j] * u[dofs.dof(nodes[j / d], j % d)];
      residual[row] += ku - b.load[i];
      r.applied_load[i % d] += b.load[i];
    }
  };
  for (std::size_t e : cells) {
    cell_contribution(p, e, b);
    add(mesh.cells.nodes_of(e));
  }
  std::vector<char> in_part(mesh.cells.size(), 0);
  for (std::size_t e : cells) in_part[e] = 1;
  const auto owners = facet_owner_cells(p);
  std::size_t facet = 0;
  for (const auto& load : p.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k)
      if (in_part[owners[facet++]]) {
        facet_contribution(p, load, k, b);
        add(mesh.boundary.nodes_of(load.facets[k]));
      }
  const int rc = elastic ? 3 : 1;
  r.reaction.assign(rc * nn, 0.0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < d; ++c)
      if (constraints.is_fixed(dofs.dof(static_cast<int>(n), c))) r.reaction[rc * n + c] = residual[dofs.dof(static_cast<int>(n), c)];
  return r;
}

// Entry by entry within 1e-12 of the reference's largest entry, which must not be zero.
void check_field(const std::string& name, std::span<const double> got, std::span<const double> want) {
  CAPTURE(name);
  REQUIRE(got.size() == want.size());
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::abs(v));
  REQUIRE(scale > 0);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) bad += !(std::abs(got[i] - want[i]) <= 1e-12 * scale);
  CHECK(bad == 0);
}

// A smooth, nowhere-polynomial mapping of the box: straight cells become curved ones.
void distort(Mesh& mesh) {
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    double* x = &mesh.coords[3 * n];
    const double x0 = x[0], y0 = x[1], z0 = x[2];
    x[0] += 0.04 * std::sin(3 * y0 + z0);
    x[1] += 0.03 * std::cos(2 * x0 - z0);
    if (mesh.dimension == 3) x[2] += 0.03 * std::sin(x0 + 2 * y0);
  }
}

Problem make_problem(const Mesh& mesh, PhysicsType type) {
  Problem p;
  p.mesh = &mesh;
  const int dim = mesh.dimension;
  p.physics = {type, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 0.4, dim};
  // Two materials, alternating by cell.
  p.materials = {{2e5, 0.3, 7.8, 1.5}, {7e4, 0.22, 2.7, 4.0}};
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) p.cell_material.push_back(static_cast<int>(e % 2));
  if (type == PhysicsType::Elasticity) {
    p.gravity = {0.5, -9.81, dim == 3 ? 2.0 : 0.0};
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {0.01, 0, -0.02}, {}});
    p.dirichlet.push_back({"ymin", testing::nodes_of_groups(mesh, {"ymin"}), {false, true, false}, {}, {}});
    auto pressure = load_on(mesh, "xmax", BoundaryLoad::Kind::Pressure);
    pressure.value = 30;
    p.loads.push_back(pressure);
    auto traction = load_on(mesh, "ymax", BoundaryLoad::Kind::Traction);
    traction.function = [](const double* x, double* t) { t[0] = 5 * x[0], t[1] = -2, t[2] = x[1]; };
    p.loads.push_back(traction);
  } else {
    p.source = 3;
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, false, false}, {20, 0, 0}, {}});
    auto flux = load_on(mesh, "xmax", BoundaryLoad::Kind::Flux);
    flux.value = 4;
    p.loads.push_back(flux);
    auto convection = load_on(mesh, "ymin", BoundaryLoad::Kind::Convection);  // meets xmin: its matrix is in the reactions
    convection.h = 7;
    convection.T_inf = 5;
    p.loads.push_back(convection);
  }
  return p;
}

// A smooth field in equation order, under a numbering that is not the mesh's.
std::vector<double> smooth_field(const Mesh& mesh, const DofMap& dofs) {
  std::vector<double> u(dofs.num_dofs());
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const double* x = &mesh.coords[3 * n];
    for (int c = 0; c < dofs.dofs_per_node; ++c)
      u[dofs.dof(static_cast<int>(n), c)] = 1e-3 * (std::sin(1.3 * x[0] + (c + 1) * 0.7 * x[1]) + 0.5 * std::cos(2 * x[2] - c) + x[0] * x[1]);
  }
  return u;
}

void check_against_reference(const Problem& p, const DofMap& dofs, const Constraints& constraints, const std::vector<double>& u,
                             const std::vector<std::size_t>& cells, const NodalResults& got) {
  const auto want = reference_results(p, dofs, constraints, u, cells);
  if (p.physics.type == PhysicsType::Elasticity) {
    check_field("strain", got.strain, want.strain);
    check_field("stress", got.stress, want.stress);
  } else {
    check_field("heat flux", got.heat_flux, want.heat_flux);
  }
  check_field("reaction", got.reaction, want.reaction);
  const double scale = std::max({std::abs(want.applied_load[0]), std::abs(want.applied_load[1]), std::abs(want.applied_load[2])});
  REQUIRE(scale > 0);
  for (int c = 0; c < 3; ++c) CHECK(std::abs(got.applied_load[c] - want.applied_load[c]) <= 1e-12 * scale);
}

}  // namespace

TEST_CASE("recovered gradients, reactions and applied load match the serial reference") {
  struct Variant {
    std::vector<int> divisions;
    ElementShape shape;
    int order;
    bool serendipity;
  };
  // The largest mesh has enough cells for the sweep to take them in blocks of several.
  for (const Variant& v : {Variant{{5, 4}, ElementShape::Triangle, 1, false}, Variant{{5, 4}, ElementShape::Quadrilateral, 2, true},
                           Variant{{5, 4}, ElementShape::Triangle, 2, false}, Variant{{4, 3, 3}, ElementShape::Hexahedron, 1, false},
                           Variant{{4, 3, 3}, ElementShape::Tetrahedron, 2, false}, Variant{{4, 3, 3}, ElementShape::Hexahedron, 2, false},
                           Variant{{24, 16, 12}, ElementShape::Hexahedron, 1, false}})
    for (const PhysicsType type : {PhysicsType::Elasticity, PhysicsType::Heat}) {
      const std::vector<double> size = v.divisions.size() == 2 ? std::vector<double>{1.2, 0.8} : std::vector<double>{1.2, 0.8, 0.6};
      Mesh mesh = make_box_mesh({size, v.divisions, v.shape, v.order, v.serendipity});
      distort(mesh);
      CAPTURE(element_info(mesh.cells.type[0]).name);
      CAPTURE(type == PhysicsType::Heat);
      const Problem p = make_problem(mesh, type);
      // Reversed node numbering: equation order differs from mesh order.
      std::vector<std::int32_t> rank(mesh.num_nodes());
      for (std::size_t n = 0; n < rank.size(); ++n) rank[n] = static_cast<std::int32_t>(rank.size() - 1 - n);
      const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node(), rank);
      const Constraints constraints = collect_constraints(p, dofs);
      const auto u = smooth_field(mesh, dofs);

      std::vector<std::size_t> all(mesh.cells.size());
      std::iota(all.begin(), all.end(), std::size_t{0});
      const NodalResults whole = recover_results(p, dofs, constraints, u);
      check_against_reference(p, dofs, constraints, u, all, whole);

      // Two parts, as two MPI ranks would hold them: each matches the reference on its cells,
      // and their reactions and loads add up to the whole's.
      std::vector<std::size_t> part[2];
      // (Not by columns of cells: both parts reach the constrained faces.)
      for (std::size_t e = 0; e < mesh.cells.size(); ++e) part[e % 7 < 3].push_back(e);
      std::vector<double> reaction_sum(whole.reaction.size(), 0.0);
      std::array<double, 3> load_sum{};
      for (const auto& cells : part) {
        const NodalResults r = recover_results(p, dofs, constraints, u, cells);
        check_against_reference(p, dofs, constraints, u, cells, r);
        for (std::size_t i = 0; i < reaction_sum.size(); ++i) reaction_sum[i] += r.reaction[i];
        for (int c = 0; c < 3; ++c) load_sum[c] += r.applied_load[c];
      }
      check_field("reactions of the parts", reaction_sum, whole.reaction);
      for (int c = 0; c < 3; ++c) CHECK(load_sum[c] == doctest::Approx(whole.applied_load[c]).epsilon(1e-12));
    }
}

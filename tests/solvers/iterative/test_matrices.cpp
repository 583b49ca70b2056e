#include "tests/solvers/iterative/test_matrices.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/renumber.hpp"
#include "tests/support/solve.hpp"

namespace fem::testing {
namespace {

FeSystem assemble_box(const Mesh& mesh, Problem& p, const std::string& fixed_face, std::array<bool, 3> components) {
  p.mesh = &mesh;
  p.cell_material.assign(mesh.cells.size(), 0);
  p.dirichlet.push_back({fixed_face, nodes_of_groups(mesh, {fixed_face}), components, {0, 0, 0}, {}});
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node,
                                                        static_cast<int>(mesh.num_nodes()));
  const auto perm = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node(), perm.new_of_old);
  auto system = assemble(p, dofs, graph);
  apply_constraints(system.matrix, system.rhs, collect_constraints(p, dofs));
  FeSystem fe{std::move(system.matrix), std::move(system.rhs), dofs.dofs_per_node, mesh.dimension, {}};
  fe.coordinates.resize(mesh.coords.size());
  for (std::size_t rank = 0; rank < dofs.node_at_rank.size(); ++rank)
    for (int k = 0; k < 3; ++k) fe.coordinates[3 * rank + k] = mesh.coords[3 * dofs.node_at_rank[rank] + k];
  return fe;
}

Mesh quad_rectangle(double width, int nx, int ny) {
  BoxSpec spec;
  spec.size = {width, 1.0};
  spec.divisions = {nx, ny};
  spec.shape = ElementShape::Quadrilateral;
  return make_box_mesh(spec);
}

}  // namespace

FeSystem elasticity_box(int nx, int ny, int nz, int order, ElementShape shape) {
  BoxSpec spec;
  spec.size = {2.0, 1.0, 1.0};
  spec.divisions = {nx, ny, nz};
  spec.shape = shape;
  spec.order = order;
  const Mesh mesh = make_box_mesh(spec);
  Problem p;
  p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
  p.materials = {{200e9, 0.3, 7800, 0}};
  p.gravity = {0, 0, -9.81};
  return assemble_box(mesh, p, "xmin", {true, true, true});
}

FeSystem heat_square(int nx, int ny) {
  const Mesh mesh = quad_rectangle(1.0, nx, ny);
  Problem p;
  p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, 2};
  p.materials = {{0, 0, 0, 45.0}};
  p.source = 1000.0;
  return assemble_box(mesh, p, "xmin", {true, false, false});
}

FeSystem nonsymmetric_heat_square(int nx, int ny) {
  auto fe = heat_square(nx, ny);
  CsrMatrix& a = fe.matrix;
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (a.col[k] == i + 1) a.val[k] *= 0.3;
  return fe;
}

FeSystem elasticity_strip(int nx, int ny) {
  const Mesh mesh = quad_rectangle(4.0, nx, ny);
  Problem p;
  p.physics = {PhysicsType::Elasticity, ElasticModel::PlaneStress, 1.0, 2};
  p.materials = {{70e9, 0.33, 2700, 0}};
  p.gravity = {0, -9.81, 0};
  return assemble_box(mesh, p, "xmin", {true, true, false});
}

CsrMatrix random_irregular(std::int64_t n, int max_row, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> length(0, max_row);
  std::uniform_int_distribution<std::int32_t> column(0, static_cast<std::int32_t>(n - 1));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const std::int64_t dense_row = n / 3;
  CsrMatrix a;
  a.rows = n;
  std::vector<std::int32_t> cols;
  for (std::int64_t i = 0; i < n; ++i) {
    cols.clear();
    if (i == dense_row) {
      for (std::int32_t j = 0; j < n; ++j) cols.push_back(j);
    } else if (i % 7 != 3) {  // every seventh row empty
      const int len = length(rng);
      for (int k = 0; k < len; ++k) cols.push_back(column(rng));
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    }
    for (auto c : cols) {
      a.col.push_back(c);
      a.val.push_back(value(rng));
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

std::vector<double> random_vector(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = value(rng);
  return v;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double scale = 1.0, worst = 0.0;
  for (double v : b) scale = std::max(scale, std::abs(v));
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return a.size() == b.size() ? worst / scale : INFINITY;
}

}  // namespace fem::testing

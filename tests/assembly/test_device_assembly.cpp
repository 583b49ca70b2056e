// Assembly on the CUDA device against the host's (assemble, then apply_constraints) on jittered
// box meshes of every element type, for 3D, plane stress and axisymmetric elasticity and for
// heat, with prescribed nonzero values (the lifting) and gravity or a source (the loads); and the
// device's recovery (the cells' sweep) against the host's on the same meshes. Passes with a
// message where there is no CUDA build or device (bench/gpu.sh runs it on the GPU machine).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

#include "fem/assembly/device_assembly.hpp"
#include "fem/pipeline/discrete_system.hpp"
#include "fem/post/device_recovery.hpp"
#include "kernels/sparse_backend.hpp"
#include "kernels/stiffness_assembler.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "tests/assembly/jittered_problems.hpp"

using namespace fem;
using testing::jittered_box;
using testing::problem_on;
using testing::Shape;

namespace {

double relative_difference(std::span<const double> a, std::span<const double> b) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(b[k]));
  }
  return diff / scale;
}

void check_agrees(const Problem& p) {
  const Mesh& mesh = *p.mesh;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node());
  const Constraints constraints = collect_constraints(p, dofs);
  auto host = assemble(p, dofs, graph);
  apply_constraints(host.matrix, host.rhs, constraints);
  const auto device = assemble_on_cuda(p, dofs, graph, constraints);
  REQUIRE(device.has_value());
  REQUIRE(device->matrix.col == host.matrix.col);
  CHECK(relative_difference(device->matrix.val, host.matrix.val) <= 1e-12);
  CHECK(relative_difference(device->rhs, host.rhs) <= 1e-12);
  // In node blocks: the host's matrix in blocks, no CSR, the values on the device alone (copied
  // back on request).
  const auto blocks = assemble_on_cuda(p, dofs, graph, constraints, true);
  REQUIRE(blocks.has_value());
  CHECK(blocks->matrix.rows == 0);
  const auto expected = amg::to_block_sparse(host.matrix, dofs.dofs_per_node);
  REQUIRE(blocks->blocks.row_ptr == expected.row_ptr);
  REQUIRE(blocks->blocks.col == expected.col);
  CHECK(blocks->blocks.val.empty());
  REQUIRE(blocks->blocks_on_device);
  std::vector<double> values(expected.val.size());
  REQUIRE(blocks->blocks_on_device->values_to_host(values));
  CHECK(relative_difference(values, expected.val) <= 1e-12);
  CHECK(relative_difference(blocks->rhs, host.rhs) <= 1e-12);
  // ... for a solver on the device: its product is the host's blocks'.
  const auto backend = kernels::make_sparse_backend("cuda");
  std::vector<double> x(static_cast<std::size_t>(expected.rows())), y(x.size()), y_device(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.37 * static_cast<double>(i) + 0.2);
  amg::multiply(expected, x, y);
  const auto x_there = backend->vector(x.size()), y_there = backend->vector(x.size());
  x_there->upload(x);
  backend->block_spmv(*blocks->blocks_on_device, 1.0, *x_there, 0.0, *y_there);
  y_there->download(y_device);
  CHECK(relative_difference(y_device, y) <= 1e-12);
}

const Shape k2d[] = {{ElementShape::Triangle, 1, false}, {ElementShape::Triangle, 2, false},
                     {ElementShape::Quadrilateral, 1, false}, {ElementShape::Quadrilateral, 2, true},
                     {ElementShape::Quadrilateral, 2, false}};
const Shape k3d[] = {{ElementShape::Tetrahedron, 1, false}, {ElementShape::Tetrahedron, 2, false},
                     {ElementShape::Hexahedron, 1, false}, {ElementShape::Hexahedron, 2, true},
                     {ElementShape::Hexahedron, 2, false}};

// A solution that varies in every component and direction (no gradient is zero or constant).
std::vector<double> uneven_solution(const Mesh& mesh, const DofMap& dofs) {
  std::vector<double> u(static_cast<std::size_t>(dofs.num_dofs()));
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const double* x = &mesh.coords[3 * n];
    for (int c = 0; c < dofs.dofs_per_node; ++c)
      u[dofs.dof(static_cast<int>(n), c)] =
          1e-3 * (std::sin(1.7 * x[0] + (c + 1) * 0.9 * x[1]) + std::cos(2.3 * x[2] - c) + x[0] * x[1] * (c + 1));
  }
  return u;
}

void check_recovery_agrees(const Problem& p) {
  const DofMap dofs = make_dof_map(p.mesh->num_nodes(), p.physics.dofs_per_node());
  const auto u = uneven_solution(*p.mesh, dofs);
  const CellResults host = sweep_cells(p, dofs, u, {});
  const auto device = sweep_cells_on_cuda(p, dofs, u);
  REQUIRE(device.has_value());
  REQUIRE(device->gradients.size() == host.gradients.size());
  CHECK(relative_difference(device->gradients, host.gradients) <= 1e-12);
  CHECK(relative_difference(device->body_load, host.body_load) <= 1e-12);
}

// visit(mesh) on a jittered box of each element shape in `shapes` (dim dimensions), the shape
// captured for the messages of the checks inside.
template <class Visit>
void on_every_shape(int dim, std::span<const Shape> shapes, Visit visit) {
  for (const Shape& s : shapes) {
    CAPTURE(static_cast<int>(s.shape));
    CAPTURE(s.order);
    visit(jittered_box(dim, s));
  }
}

bool no_device() {
  if (kernels::cuda_stiffness_assembler()) return false;
  MESSAGE("no CUDA build or device: device assembly not tested here");
  return true;
}

}  // namespace

TEST_CASE("device assembly equals the host's for every element type, elasticity and heat") {
  if (no_device()) return;
  on_every_shape(3, k3d, [](const Mesh& mesh) {
    check_agrees(problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D));
    check_agrees(problem_on(mesh, PhysicsType::Heat, ElasticModel::Solid3D));
  });
  on_every_shape(2, k2d, [](const Mesh& mesh) {
    check_agrees(problem_on(mesh, PhysicsType::Elasticity, ElasticModel::PlaneStress));
    check_agrees(problem_on(mesh, PhysicsType::Elasticity, ElasticModel::PlaneStrain));
    check_agrees(problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Axisymmetric));
    check_agrees(problem_on(mesh, PhysicsType::Heat, ElasticModel::PlaneStress));
  });
}

TEST_CASE("K left on the device: CG + AMG there, the residual and the exported K as with K on the host") {
  // The host never holds K's values on the device path (DiscreteSystem hands the AMG setup the
  // device's blocks and the pattern); the same iterations and answer as the host's K, and K
  // copied back only when asked for (assembled()).
  if (no_device()) return;
  for (const auto& [shape, type, model] :
       {std::tuple{Shape{ElementShape::Hexahedron, 1, false}, PhysicsType::Elasticity, ElasticModel::Solid3D},
        std::tuple{Shape{ElementShape::Tetrahedron, 2, false}, PhysicsType::Elasticity, ElasticModel::Solid3D},
        std::tuple{Shape{ElementShape::Quadrilateral, 2, false}, PhysicsType::Heat, ElasticModel::PlaneStress}}) {
    CAPTURE(static_cast<int>(shape.shape));
    const Mesh mesh = jittered_box(shape.shape == ElementShape::Quadrilateral ? 2 : 3, shape);
    const Problem p = problem_on(mesh, type, model);
    const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    const NodeOrdering ordering = order_nodes(graph, "rcm", SolverMethodId::Cg, p.physics.dofs_per_node());
    SolverOptions options;
    options.device = Device::Cuda;
    options.preconditioner = Preconditioner::Amg;
    const auto solver = make_solver(options);
    std::vector<std::vector<double>> answers;
    std::vector<int> iterations;
    for (const bool on_device : {true, false}) {
      DiscreteSystem system(p, graph, ordering);
      system.assemble_on_cuda_when_possible(on_device);
      system.assemble_in_node_blocks(solver->takes_node_blocks());
      system.prepare(false);
      REQUIRE(system.assembled_on_cuda() == on_device);
      std::vector<double> u(static_cast<std::size_t>(system.dofs().num_dofs()), 0.0);
      const SolveReport report = system.solve(*solver, u);
      CHECK(system.relative_residual(false, u) < 1e-9);
      iterations.push_back(report.iterations);
      answers.push_back(u);
      if (on_device) {  // K copied back on request: the host's assembly's
        DiscreteSystem on_host(p, graph, ordering);
        on_host.prepare(false);
        CHECK(relative_difference(system.assembled().matrix.val, on_host.assembled().matrix.val) <= 1e-12);
      }
    }
    CHECK(iterations[0] == iterations[1]);
    CHECK(relative_difference(answers[0], answers[1]) <= 1e-8);
  }
}

TEST_CASE("device assembly reports an inverted cell as the host does") {
  if (no_device()) return;
  Mesh mesh = jittered_box(3, {ElementShape::Hexahedron, 1, false});
  const auto nodes = mesh.cells.nodes_of(2);
  for (int a = 0; a < 4; ++a) std::swap(mesh.coords[3 * nodes[a] + 2], mesh.coords[3 * nodes[a + 4] + 2]);
  const Problem p = problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D);
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const DofMap dofs = make_dof_map(mesh.num_nodes(), 3);
  CHECK_THROWS_AS(assemble_on_cuda(p, dofs, graph, collect_constraints(p, dofs)), InvertedElement);
}

// Heat with convection on xmax (h N N^T on K, h T_inf N on f) besides the common conditions.
Problem with_convection(const Mesh& mesh, ElasticModel model) {
  Problem p = problem_on(mesh, PhysicsType::Heat, model);
  BoundaryLoad convection;
  convection.kind = BoundaryLoad::Kind::Convection;
  convection.group = "xmax";
  for (const auto& group : mesh.groups)
    if (group.name == "xmax") convection.facets = group.elements;
  convection.outward.assign(convection.facets.size(), 1.0);
  convection.h = 25;
  convection.T_inf = 300;
  p.loads.push_back(convection);
  return p;
}

TEST_CASE("device assembly with convection equals the host's (its matrix terms added on the device), 2D and 3D") {
  const Mesh box = jittered_box(3, {ElementShape::Hexahedron, 1, false});
  const Problem p = with_convection(box, ElasticModel::Solid3D);
  REQUIRE_FALSE(p.loads.front().facets.empty());
  CHECK(device_can_assemble(p));
  if (no_device()) return;
  on_every_shape(3, k3d, [](const Mesh& mesh) { check_agrees(with_convection(mesh, ElasticModel::Solid3D)); });
  on_every_shape(2, k2d, [](const Mesh& mesh) { check_agrees(with_convection(mesh, ElasticModel::PlaneStress)); });
}

TEST_CASE("the device path leaves thermal strain to the host") {
  const Mesh mesh = jittered_box(3, {ElementShape::Hexahedron, 1, false});
  Problem p = problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D);
  CHECK(device_can_assemble(p));
  p.temperature.assign(mesh.num_nodes(), 80.0);
  p.materials[0].alpha = 1.2e-5;
  CHECK_FALSE(device_can_assemble(p));
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const DofMap dofs = make_dof_map(mesh.num_nodes(), 3);
  CHECK_FALSE(assemble_on_cuda(p, dofs, graph, collect_constraints(p, dofs)).has_value());
}

TEST_CASE("device recovery equals the host's for every element type, 3D elasticity and heat") {
  if (no_device()) return;
  on_every_shape(3, k3d, [](const Mesh& mesh) {
    check_recovery_agrees(problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D));
    check_recovery_agrees(problem_on(mesh, PhysicsType::Heat, ElasticModel::Solid3D));
  });
  on_every_shape(2, k2d, [](const Mesh& mesh) {
    check_recovery_agrees(problem_on(mesh, PhysicsType::Heat, ElasticModel::PlaneStress));
    check_recovery_agrees(problem_on(mesh, PhysicsType::Heat, ElasticModel::Axisymmetric));
  });
}

TEST_CASE("the device's recovery leaves 2D elasticity and thermal strain to the host") {
  const Mesh flat = jittered_box(2, {ElementShape::Quadrilateral, 1, false});
  for (ElasticModel model : {ElasticModel::PlaneStress, ElasticModel::PlaneStrain, ElasticModel::Axisymmetric}) {
    const Problem p = problem_on(flat, PhysicsType::Elasticity, model);
    CHECK_FALSE(device_can_recover(p));
    const DofMap dofs = make_dof_map(flat.num_nodes(), 2);
    CHECK_FALSE(sweep_cells_on_cuda(p, dofs, uneven_solution(flat, dofs)).has_value());
  }
  const Mesh solid = jittered_box(3, {ElementShape::Hexahedron, 1, false});
  Problem heated = problem_on(solid, PhysicsType::Elasticity, ElasticModel::Solid3D);
  CHECK(device_can_recover(heated));
  heated.temperature.assign(solid.num_nodes(), 40.0);
  CHECK_FALSE(device_can_recover(heated));
}

// K in d x d node blocks (the format AMG multiplies) against K in CSR: the pattern, and host
// assembly with the constraints applied, on jittered meshes of every 3D and 2D element type,
// elasticity and heat, under a scrambling node renumbering.
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "tests/assembly/jittered_problems.hpp"

using namespace fem;
using testing::jittered_box;

namespace {

// n -> n * step mod count, step coprime to the count: every node moves.
std::vector<std::int32_t> scrambled(std::size_t count) {
  std::vector<std::int32_t> rank(count);
  std::size_t step = 7;
  while (std::gcd(count, step) != 1) ++step;
  for (std::size_t n = 0; n < count; ++n) rank[n] = static_cast<std::int32_t>((n * step) % count);
  return rank;
}

// xmin fixed in x and z only: rows of a node partly prescribed.
constexpr std::array<bool, 3> kXminButY = {true, false, true};

renumber::NodeGraph graph_of(const Mesh& mesh) {
  return renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
}

// Assembled both ways with the constraints applied: the same entries (the sums are made in the
// same order, so to the last bit) and the same right-hand side.
void check_blocks_equal_csr(const Problem& p) {
  const Mesh& mesh = *p.mesh;
  const auto graph = graph_of(mesh);
  const DofMap dofs = make_dof_map(mesh.num_nodes(), p.physics.dofs_per_node(), scrambled(mesh.num_nodes()));
  const Constraints constraints = collect_constraints(p, dofs);
  auto csr = assemble(p, dofs, graph);
  apply_constraints(csr.matrix, csr.rhs, constraints);
  auto blocks = assemble(p, dofs, graph, AssemblyStrategy::Coloring, nullptr, true);
  apply_constraints(blocks.blocks, blocks.rhs, constraints);
  CHECK(blocks.matrix.rows == 0);
  REQUIRE(blocks.in_node_blocks());
  const auto expected = amg::to_block_sparse(csr.matrix, dofs.dofs_per_node);
  REQUIRE(blocks.blocks.row_ptr == expected.row_ptr);
  REQUIRE(blocks.blocks.col == expected.col);
  CHECK(blocks.blocks.val == expected.val);
  CHECK(blocks.rhs == csr.rhs);
  CHECK(constraints.count > 0);
}

}  // namespace

TEST_CASE("the node-block pattern is the CSR pattern's blocks, under a renumbering") {
  for (const auto& [shape, order] : {std::pair{ElementShape::Tetrahedron, 2}, std::pair{ElementShape::Hexahedron, 1}}) {
    const Mesh mesh = jittered_box(3, {shape, order, false});
    const auto graph = graph_of(mesh);
    for (const int d : {1, 3}) {
      const DofMap dofs = make_dof_map(mesh.num_nodes(), d, scrambled(mesh.num_nodes()));
      const auto blocks = node_block_pattern(graph, dofs);
      const auto expected = amg::to_block_sparse(sparsity_pattern(graph, dofs), d);
      CHECK(blocks.row_block == d);
      CHECK(blocks.block_rows == expected.block_rows);
      CHECK(blocks.row_ptr == expected.row_ptr);
      CHECK(blocks.col == expected.col);
      CHECK(blocks.val.size() == expected.val.size());
      CHECK(std::all_of(blocks.val.begin(), blocks.val.end(), [](double v) { return v == 0.0; }));
    }
  }
}

TEST_CASE("host assembly in node blocks equals its CSR, constraints applied, for every element type") {
  for (const auto& [shape, order] : {std::pair{ElementShape::Tetrahedron, 1}, std::pair{ElementShape::Tetrahedron, 2},
                                     std::pair{ElementShape::Hexahedron, 1}, std::pair{ElementShape::Hexahedron, 2}}) {
    CAPTURE(static_cast<int>(shape));
    CAPTURE(order);
    const Mesh mesh = jittered_box(3, {shape, order, false});
    check_blocks_equal_csr(testing::problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Solid3D, kXminButY));
    check_blocks_equal_csr(testing::problem_on(mesh, PhysicsType::Heat, ElasticModel::Solid3D, kXminButY));
  }
  for (const auto& [shape, order] : {std::pair{ElementShape::Triangle, 2}, std::pair{ElementShape::Quadrilateral, 1}}) {
    CAPTURE(static_cast<int>(shape));
    const Mesh mesh = jittered_box(2, {shape, order, false});
    check_blocks_equal_csr(testing::problem_on(mesh, PhysicsType::Elasticity, ElasticModel::PlaneStress, kXminButY));
    check_blocks_equal_csr(testing::problem_on(mesh, PhysicsType::Elasticity, ElasticModel::Axisymmetric, kXminButY));
    check_blocks_equal_csr(testing::problem_on(mesh, PhysicsType::Heat, ElasticModel::PlaneStress, kXminButY));
  }
}

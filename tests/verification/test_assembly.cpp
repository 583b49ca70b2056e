// Assembly against itself and its references: both threading strategies give the same matrix,
// the element-by-element system sums to the assembled one, the element residual equals the
// CSR residual, and renumbering never changes the answer.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "fem/assembly/element_system.hpp"
#include "fem/assembly/residual.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/renumber.hpp"
#include "kernels/shared/vector_ops.hpp"
#include "solvers/linear_solver.hpp"
#include "tests/support/solve.hpp"

using namespace fem;

namespace {

struct Fixture {
  Mesh mesh = make_box_mesh({{1.5, 1, 0.7}, {3, 2, 2}, ElementShape::Tetrahedron, 2, false});
  Problem p;
  renumber::NodeGraph graph;
  Fixture() {
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
    p.materials = {{5e3, 0.25, 1.0, 0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.gravity = {0, -2, 0};
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, true}, {0.01, 0, -0.02}, {}});
    BoundaryLoad l;
    l.kind = BoundaryLoad::Kind::Pressure;
    l.group = "xmax";
    l.facets = mesh.find_group("xmax")->elements;
    l.outward = outward_signs(mesh, l.facets);
    l.value = 7;
    p.loads.push_back(l);
    graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  }
};

}  // namespace

TEST_CASE("colouring and per-thread buffers assemble the same matrix") {
  Fixture fx;
  const auto dofs = make_dof_map(fx.mesh.num_nodes(), 3, renumber::renumber(fx.graph, renumber::RenumberMethod::Rcm).new_of_old);
  const auto a = assemble(fx.p, dofs, fx.graph, AssemblyStrategy::Coloring);
  const auto b = assemble(fx.p, dofs, fx.graph, AssemblyStrategy::ThreadBuffers);
  REQUIRE(a.matrix.col == b.matrix.col);
  CHECK(a.colors > 1);
  for (std::size_t k = 0; k < a.matrix.val.size(); ++k) CHECK(a.matrix.val[k] == doctest::Approx(b.matrix.val[k]).epsilon(1e-12));
  // The colours really separate elements: no two elements of a colour share a node.
  for (const auto& colour : color_elements(fx.mesh.cells, fx.mesh.num_nodes())) {
    std::vector<int> seen(fx.mesh.num_nodes(), 0);
    for (auto e : colour)
      for (int n : fx.mesh.cells.nodes_of(e)) CHECK(seen[n]++ == 0);
  }
}

TEST_CASE("element blocks hold every element once, in order, and blocks of a colour share no node") {
  const Mesh mesh = make_box_mesh({{3, 3, 1}, {30, 30, 10}, ElementShape::Hexahedron, 1, false});
  std::vector<std::size_t> shuffled(mesh.cells.size());
  std::iota(shuffled.begin(), shuffled.end(), std::size_t{0});
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(7));
  const std::vector<std::size_t> part(shuffled.begin(), shuffled.begin() + shuffled.size() / 3);
  for (const auto& which : {std::vector<std::size_t>{}, part}) {
    const ElementBlocks blocks = color_element_blocks(mesh.cells, which, mesh.num_nodes());
    if (which.empty()) {
      CHECK(blocks.block_size > 1);  // the box is numbered locally
      CHECK(blocks.element.size() == mesh.cells.size());
      CHECK(std::is_sorted(blocks.element.begin(), blocks.element.end()));
    } else {
      CHECK(blocks.element == which);
    }
    CHECK(blocks.colors.size() > 1);
    std::vector<int> taken(blocks.element.size(), 0);
    for (const auto& colour : blocks.colors) {
      std::vector<int> seen(mesh.num_nodes(), 0);
      for (auto b : colour) {
        std::vector<int> nodes;
        for (const std::size_t& e : blocks.block(b)) {
          ++taken[&e - blocks.element.data()];
          for (int n : mesh.cells.nodes_of(e)) nodes.push_back(n);
        }
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        for (int n : nodes) CHECK(seen[n]++ == 0);
      }
    }
    CHECK(std::all_of(taken.begin(), taken.end(), [](int t) { return t == 1; }));
  }
}

TEST_CASE("assembly by element blocks gives the matrix of per-thread buffers") {
  const Mesh mesh = make_box_mesh({{2, 1.5, 1}, {24, 16, 12}, ElementShape::Hexahedron, 1, false});
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, ElasticModel::Solid3D, 1.0, 3};
  p.materials = {{5e3, 0.25, 1.0, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.gravity = {0, -2, 1};
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const auto dofs = make_dof_map(mesh.num_nodes(), 3, renumber::renumber(graph, renumber::RenumberMethod::Rcm).new_of_old);
  REQUIRE(color_element_blocks(mesh.cells, {}, mesh.num_nodes()).block_size > 1);
  const auto a = assemble(p, dofs, graph, AssemblyStrategy::Coloring);
  const auto b = assemble(p, dofs, graph, AssemblyStrategy::ThreadBuffers);
  REQUIRE(a.matrix.col == b.matrix.col);
  double scale = 0;
  for (double v : b.matrix.val) scale = std::max(scale, std::abs(v));
  REQUIRE(scale > 0);
  std::size_t bad = 0;
  for (std::size_t k = 0; k < a.matrix.val.size(); ++k) bad += !(std::abs(a.matrix.val[k] - b.matrix.val[k]) <= 1e-12 * scale);
  CHECK(bad == 0);
  for (std::size_t i = 0; i < a.rhs.size(); ++i) CHECK(a.rhs[i] == doctest::Approx(b.rhs[i]).epsilon(1e-12));
}

TEST_CASE("the element system sums to the assembled matrix and the residuals agree") {
  Fixture fx;
  const auto dofs = make_dof_map(fx.mesh.num_nodes(), 3);
  auto assembled = assemble(fx.p, dofs, fx.graph);
  const auto constraints = collect_constraints(fx.p, dofs);
  const auto elements = make_element_system(fx.p, dofs, constraints);
  REQUIRE(elements.order.size() == fx.mesh.cells.size() + fx.p.loads[0].facets.size());
  // Sum the element contributions densely and compare with the CSR before constraints.
  const auto n = static_cast<std::size_t>(dofs.num_dofs());
  std::vector<double> dense(n * n, 0.0), f(n, 0.0);
  ElementContribution c;
  for (auto id : elements.order) {
    elements.system.element(id, c);
    for (std::size_t i = 0; i < c.dofs.size(); ++i) {
      f[c.dofs[i]] += c.load[i];
      for (std::size_t j = 0; j < c.dofs.size(); ++j) dense[c.dofs[i] * n + c.dofs[j]] += c.matrix[i * c.dofs.size() + j];
    }
  }
  for (std::int64_t i = 0; i < assembled.matrix.rows; ++i) {
    CHECK(f[i] == doctest::Approx(assembled.rhs[i]).epsilon(1e-12));
    for (auto k = assembled.matrix.row_ptr[i]; k < assembled.matrix.row_ptr[i + 1]; ++k)
      CHECK(dense[i * n + assembled.matrix.col[k]] == doctest::Approx(assembled.matrix.val[k]).epsilon(1e-12));
  }
  // A perturbed solution: the element residual equals the CSR residual of the constrained system.
  apply_constraints(assembled.matrix, assembled.rhs, constraints);
  std::vector<double> u(n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> noise(-1e-3, 1e-3);
  for (auto& x : u) x = noise(rng);
  std::vector<double> r(n);
  cpu::spmv(assembled.matrix, u, r);
  cpu::axpy(-1.0, assembled.rhs, r);
  const double csr = std::sqrt(cpu::dot(r, r) / cpu::dot(assembled.rhs, assembled.rhs));
  CHECK(element_relative_residual(fx.p, dofs, constraints, u) == doctest::Approx(csr).epsilon(1e-10));
}

TEST_CASE("renumbering never changes the answer") {
  Fixture fx;
  const auto reference = testing::solve(fx.p, 1e-14);
  for (auto method : {renumber::RenumberMethod::Rcm, renumber::RenumberMethod::Gps, renumber::RenumberMethod::Sloan}) {
    CAPTURE(std::string(renumber::method_name(method)));
    const auto perm = renumber::renumber(fx.graph, method);
    const auto dofs = make_dof_map(fx.mesh.num_nodes(), 3, perm.new_of_old);
    auto system = assemble(fx.p, dofs, fx.graph);
    const auto constraints = collect_constraints(fx.p, dofs);
    apply_constraints(system.matrix, system.rhs, constraints);
    std::vector<double> u(dofs.num_dofs(), 0.0);
    SolverOptions options;
    options.tolerance = 1e-14;
    make_solver(options)->solve(AssembledSystem{system.matrix, system.rhs}, u);
    double worst = 0, scale = 0;
    for (int node = 0; node < static_cast<int>(fx.mesh.num_nodes()); ++node)
      for (int c = 0; c < 3; ++c) {
        worst = std::max(worst, std::abs(u[dofs.dof(node, c)] - reference.value(node, c)));
        scale = std::max(scale, std::abs(reference.value(node, c)));
      }
    CHECK(worst < 1e-10 * scale);
  }
}

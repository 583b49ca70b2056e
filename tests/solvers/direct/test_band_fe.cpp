// The band solvers on finite-element systems (box meshes renumbered with RCM, 2D and 3D) against
// the CPU conjugate gradient, and mixed precision reaching 1e-10.
#include <doctest/doctest.h>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/renumber.hpp"
#include "solvers/direct/band_cholesky_solver.hpp"
#include "solvers/direct/band_elimination.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "tests/solvers/direct/band_test_matrices.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using band_tests::max_rel_diff;

namespace {

struct FeSystem {
  Mesh mesh;
  AssembledSystemData system;
};

// A cantilever under gravity, clamped at xmin, numbered with RCM.
FeSystem cantilever(const BoxSpec& spec) {
  FeSystem fe{make_box_mesh(spec), {}};
  const Mesh& mesh = fe.mesh;
  const int dim = mesh.dimension;
  Problem p;
  p.mesh = &mesh;
  p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 0.1, dim};
  p.materials = {{210e9, 0.3, 7800, 0}};
  p.cell_material.assign(mesh.cells.size(), 0);
  p.gravity = {0, -9.81, 0};
  p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, dim == 3}, {}, {}});
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node,
                                                        static_cast<int>(mesh.num_nodes()));
  const auto perm = renumber::renumber(graph, renumber::RenumberMethod::Rcm);
  const auto dofs = make_dof_map(mesh.num_nodes(), dim, perm.new_of_old);
  fe.system = assemble(p, dofs, graph);
  apply_constraints(fe.system.matrix, fe.system.rhs, collect_constraints(p, dofs));
  return fe;
}

std::vector<double> solve_with(const FeSystem& fe, std::unique_ptr<LinearSolver> solver, SolveReport* report = nullptr) {
  std::vector<double> u(fe.system.rhs.size(), 0.0);
  const auto r = solver->solve(AssembledSystem{fe.system.matrix, fe.system.rhs}, u);
  if (report) *report = r;
  return u;
}

}  // namespace

TEST_CASE("band solvers agree with CG on RCM-numbered box meshes in 2D and 3D") {
  const BoxSpec specs[] = {{{4.0, 1.0}, {40, 10}, ElementShape::Quadrilateral, 2, true},
                           {{3.0, 1.0, 1.0}, {9, 3, 3}, ElementShape::Hexahedron, 1, false}};
  for (const auto& spec : specs) {
    CAPTURE(spec.size.size());
    const FeSystem fe = cantilever(spec);
    SolverOptions cg;
    cg.tolerance = 1e-14;
    cg.max_iterations = 100000;
    const auto reference = solve_with(fe, make_conjugate_gradient(cg));

    SolveReport report;
    SolverOptions options;
    CHECK(max_rel_diff(solve_with(fe, make_band_cholesky_cpu(options), &report), reference) < 1e-10);
    CHECK(report.figures.at("bandwidth") == static_cast<double>(band::bandwidth_of(fe.system.matrix)));
    CHECK(report.figures.at("flops") == band::cholesky_flops(fe.system.matrix.rows, band::bandwidth_of(fe.system.matrix)));
    CHECK(report.residual < 1e-10);
    CHECK(max_rel_diff(solve_with(fe, make_band_gauss_cpu(options)), reference) < 1e-10);
    CHECK(max_rel_diff(solve_with(fe, make_band_ldlt_cpu(options)), reference) < 1e-10);

    options.precision = Precision::Mixed;
    for (auto make : {make_band_cholesky_cpu, make_band_gauss_cpu, make_band_ldlt_cpu}) {
      const auto mixed = solve_with(fe, make(options), &report);
      CHECK(max_rel_diff(mixed, reference) < 1e-10);
      CHECK(report.residual <= 1e-10);
      CHECK(report.figures.at("refinement_steps") >= 1);
      CHECK(report.figures.at("precision_fallback") == 0);
      CHECK(report.figures.at("factor_precision_bits") == 32);
    }
  }
}

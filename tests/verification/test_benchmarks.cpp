// Textbook answers: a cantilever's tip deflection (Timoshenko beam theory) and the stress
// concentration at a circular hole in a wide plate (Kirsch: 3).
#include <doctest/doctest.h>

#include <cmath>

#include "fem/pipeline/make_mesh.hpp"
#include "fem/config.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "tests/support/solve.hpp"

using namespace fem;

TEST_CASE("cantilever tip deflection within 1% of Timoshenko beam theory (quadratic elements)") {
  const double L = 10, h = 1, t = 0.5, E = 70e9, nu = 0.3, P = 2000;
  for (bool serendipity : {false, true}) {
    CAPTURE(serendipity);
    BoxSpec spec{{L, h}, {40, 4}, ElementShape::Quadrilateral, 2, serendipity};
    const Mesh mesh = make_box_mesh(spec);
    Problem p;
    p.mesh = &mesh;
    p.physics = {PhysicsType::Elasticity, ElasticModel::PlaneStress, t, 2};
    p.materials = {{E, nu, 0, 0}};
    p.cell_material.assign(mesh.cells.size(), 0);
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, false}, {}, {}});
    BoundaryLoad tip;
    tip.kind = BoundaryLoad::Kind::Traction;
    tip.group = "xmax";
    tip.facets = mesh.find_group("xmax")->elements;
    tip.vector = {0, -P / (h * t), 0};  // shear force P spread over the end face
    p.loads.push_back(tip);
    const auto s = testing::solve(p, 1e-12);
    const double I = t * h * h * h / 12, G = E / (2 * (1 + nu)), kappa = 5.0 / 6.0;
    const double timoshenko = P * L * L * L / (3 * E * I) + P * L / (kappa * G * h * t);
    const double tip_deflection = -s.value(testing::nearest_node(mesh, L, h / 2), 1);
    MESSAGE("tip deflection " << tip_deflection << " vs Timoshenko " << timoshenko);
    CHECK(std::abs(tip_deflection / timoshenko - 1) < 0.01);

    // Equilibrium: the reaction at the clamp balances the load.
    const auto results = recover_results(p, s.dofs, s.constraints, s.u);
    CHECK(results.group_reactions.at("xmin")[1] == doctest::Approx(P).epsilon(1e-8));
    CHECK(std::abs(results.group_reactions.at("xmin")[0]) < 1e-6 * P);
  }
}

#if FEM_WITH_GMSH
TEST_CASE("plate with a hole: stress concentration within 3% of 3.0") {
  const auto c = load_case(std::filesystem::path(FEM_TEST_DATA_DIR) / "cases/plate_hole.yaml");
  const Mesh mesh = make_mesh(c.mesh);
  const Problem p = build_problem(c, mesh);
  const auto s = testing::solve(p, 1e-12);
  const auto results = recover_results(p, s.dofs, s.constraints, s.u);
  double remote = 0;
  for (const auto& b : c.boundary)
    if (b.kind == BoundarySpec::Kind::Traction) remote = b.vector[0];
  REQUIRE(remote > 0);
  const int top_of_hole = testing::nearest_node(mesh, 0, 1);
  const double kt = results.stress[6 * top_of_hole] / remote;
  MESSAGE("stress concentration " << kt << " at (" << mesh.coords[3 * top_of_hole] << ", " << mesh.coords[3 * top_of_hole + 1] << ")");
  CHECK(std::abs(kt - 3.0) < 0.03 * 3.0);
}
#endif

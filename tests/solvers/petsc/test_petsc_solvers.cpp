// The PETSc solvers in one process, on systems fem's own pipeline assembles (DiscreteSystem hands
// them the node coordinates): MUMPS agrees with band Cholesky to 1e-10, CG + GAMG to 1e-6 in few
// iterations because of the rigid-body near-null space, solver.petsc_options reaches KSP, and a
// KSP that gives up is a SolveFailure with PETSc's reason and the iteration.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/node_graph.hpp"
#include "tests/support/vectors.hpp"

using namespace fem;
using testing::max_rel_diff;

namespace {

// A box clamped (or held at 20 degrees) on xmin, loaded by gravity (or a heat source), assembled
// under an RCM numbering. Heap-allocated: the system keeps references to the rest.
struct BoxCase {
  Mesh mesh;
  Problem problem;
  renumber::NodeGraph graph;
  NodeOrdering order;
  std::optional<DiscreteSystem> system;
};

std::unique_ptr<BoxCase> box_case(PhysicsType type, const BoxSpec& spec) {
  auto b = std::make_unique<BoxCase>();
  b->mesh = make_box_mesh(spec);
  const int dim = b->mesh.dimension;
  Problem& p = b->problem;
  p.mesh = &b->mesh;
  p.cell_material.assign(b->mesh.cells.size(), 0);
  std::vector<int> xmin;
  for (int node = 0; node < static_cast<int>(b->mesh.num_nodes()); ++node)
    if (b->mesh.coords[3 * node] == 0.0) xmin.push_back(node);
  if (type == PhysicsType::Elasticity) {
    p.physics = {PhysicsType::Elasticity, dim == 3 ? ElasticModel::Solid3D : ElasticModel::PlaneStress, 1.0, dim};
    p.materials = {{210e9, 0.3, 7800, 0}};
    p.gravity = {0, dim == 3 ? 0.0 : -9.81, dim == 3 ? -9.81 : 0.0};
    p.dirichlet.push_back({"xmin", xmin, {true, true, dim == 3}, {}, {}});
  } else {
    p.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, dim};
    p.materials = {{0, 0, 0, 45}};
    p.source = 1e4;
    p.dirichlet.push_back({"xmin", xmin, {true, false, false}, {20, 0, 0}, {}});
  }
  b->graph = renumber::node_graph_from_elements(b->mesh.cells.offset, b->mesh.cells.node, static_cast<int>(b->mesh.num_nodes()));
  b->order = order_nodes(b->graph, "rcm", SolverMethodId::Petsc, p.physics.dofs_per_node());
  b->system.emplace(p, b->graph, b->order);
  b->system->prepare(false);
  return b;
}

std::vector<double> solve(const BoxCase& b, const std::string& method, const std::string& petsc_options = "",
                          SolveReport* report = nullptr) {
  SolverOptions options;
  options.method = parse_choice<SolverMethodId>(method).value();
  options.tolerance = 1e-10;
  options.petsc_options = petsc_options;
  auto solver = make_solver(options);
  std::vector<double> u(static_cast<std::size_t>(b.system->dofs().num_dofs()), 0.0);
  const SolveReport r = b.system->solve(*solver, u);
  if (report) *report = r;
  return u;
}

// Solves with `method` and checks the answer against band Cholesky's.
SolveReport check_against_band_cholesky(const BoxCase& b, const std::string& method, double tolerance,
                                        const std::string& petsc_options = "") {
  const auto reference = solve(b, "band-cholesky");
  SolveReport report;
  const auto u = solve(b, method, petsc_options, &report);
  CHECK(max_rel_diff(u, reference) < tolerance);
  return report;
}

const BoxSpec kBeam3D{{3.0, 1.0, 1.0}, {15, 5, 5}, ElementShape::Hexahedron, 1, false};
const BoxSpec kPlate2D{{4.0, 1.0}, {24, 6}, ElementShape::Quadrilateral, 2, true};
const BoxSpec kHeat3D{{2.0, 1.0, 1.0}, {8, 4, 4}, ElementShape::Tetrahedron, 2, false};

}  // namespace

TEST_CASE("mumps agrees with band Cholesky to 1e-10 on 3D and 2D elasticity and on heat") {
  for (const auto& [type, spec] : {std::pair{PhysicsType::Elasticity, kBeam3D}, std::pair{PhysicsType::Elasticity, kPlate2D},
                                   std::pair{PhysicsType::Heat, kHeat3D}}) {
    CAPTURE(spec.size.size());
    const SolveReport report = check_against_band_cholesky(*box_case(type, spec), "mumps", 1e-10);
    CHECK(report.iterations == 0);
    CHECK(report.figures.at("factor_bytes") > 0);  // MUMPS's own count of its factor
    CHECK(report.figures.at("flops") > 0);
  }
}

TEST_CASE("CG + GAMG with the rigid-body modes agrees with band Cholesky to 1e-6 in few iterations") {
  const auto b = box_case(PhysicsType::Elasticity, kBeam3D);
  const SolveReport report = check_against_band_cholesky(*b, "petsc", 1e-6);
  CHECK(report.iterations > 0);
  CHECK(report.iterations <= 40);
  CHECK(report.residual <= 1e-10);
  CHECK(report.residual_history.size() == static_cast<std::size_t>(report.iterations + 1));
  CHECK(report.figures.at("converged_reason") > 0);

  SUBCASE("the options database replaces the default: Jacobi needs many more iterations") {
    const SolveReport jacobi = check_against_band_cholesky(*b, "petsc", 1e-6, "-pc_type jacobi");
    CHECK(jacobi.iterations > 4 * report.iterations);
  }
}

TEST_CASE("CG + GAMG on 2D elasticity and on heat (constants as the near-null space)") {
  for (const auto& [type, spec] : {std::pair{PhysicsType::Elasticity, kPlate2D}, std::pair{PhysicsType::Heat, kHeat3D}}) {
    CAPTURE(spec.size.size());
    CHECK(check_against_band_cholesky(*box_case(type, spec), "petsc", 1e-6).iterations <= 60);
  }
}

TEST_CASE("a KSP that stops short is a SolveFailure naming PETSc's reason and the iteration") {
  const auto b = box_case(PhysicsType::Elasticity, kBeam3D);
  try {
    solve(*b, "petsc", "-ksp_max_it 3");
    FAIL("expected a SolveFailure");
  } catch (const SolveFailure& e) {
    const std::string message = e.what();
    CAPTURE(message);
    CHECK(message.find("DIVERGED_ITS") != std::string::npos);
    CHECK(message.find("iteration 3") != std::string::npos);
  }
}

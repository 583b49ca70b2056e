// Transient heat against theory: a semi-infinite slab against erfc, the order of the
// theta-method in time (1 for backward Euler, 2 for Crank-Nicolson), the heat budget (stored heat
// equals what came in) and a body with nothing driving it staying as it was.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fem/analysis/transient_heat.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "tests/support/solve.hpp"

using namespace fem;
using fem::testing::load_on;
using fem::testing::nearest_node;
using fem::testing::nodes_of_groups;

namespace {

// A strip of unit conductivity and capacity (diffusivity 1) along x, held at `surface` on x = 0.
struct Strip {
  Mesh mesh;
  Problem problem;
  Strip(std::vector<double> size, std::vector<int> divisions, std::optional<double> surface) {
    mesh = make_box_mesh({size, divisions, size.size() == 2 ? ElementShape::Quadrilateral : ElementShape::Hexahedron});
    problem.mesh = &mesh;
    problem.physics = {PhysicsType::Heat, ElasticModel::Solid3D, 1.0, mesh.dimension};
    IsotropicMaterial m;
    m.k = 1;
    m.density = 1;
    m.specific_heat = 1;
    problem.materials = {m};
    problem.cell_material.assign(mesh.cells.size(), 0);
    if (surface) {
      DirichletCondition held{"xmin", nodes_of_groups(mesh, {"xmin"}), {true, false, false}, {*surface, 0, 0}, {}};
      problem.dirichlet.push_back(held);
    }
  }
};

struct Run {
  DofMap dofs;
  std::vector<std::vector<double>> temperatures;  // per output, in mesh order
  std::vector<HeatBudget> budgets;
  TransientReport report;
  double at(int output, int node) const { return temperatures[output][node]; }
};

Run run(const Problem& p, TransientSettings settings, MassLumping lumping = MassLumping::Consistent,
        const char* method = "band-cholesky") {
  const Mesh& mesh = *p.mesh;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const auto order = order_nodes(graph, "rcm", parse_choice<SolverMethodId>(method).value(), 1);
  Run out{make_dof_map(mesh.num_nodes(), 1, order.permutation.new_of_old), {}, {}, {}};
  const auto k = assemble(p, out.dofs, graph);
  const auto c = assemble_mass(p, out.dofs, graph, lumping);
  const auto constraints = collect_constraints(p, out.dofs);
  SolverOptions options;
  options.method = parse_choice<SolverMethodId>(method).value();
  options.preconditioner = Preconditioner::Amg;
  options.tolerance = 1e-12;
  auto solver = make_solver(options);
  out.report = solve_transient(k.matrix, c, k.rhs, constraints, settings, *solver, {}, [&](const TransientState& s) {
    std::vector<double> t(mesh.num_nodes());
    for (std::size_t n = 0; n < t.size(); ++n) t[n] = s.temperature[out.dofs.dof(static_cast<int>(n), 0)];
    out.temperatures.push_back(std::move(t));
    out.budgets.push_back(s.budget);
  });
  return out;
}

}  // namespace

TEST_CASE("a semi-infinite slab heated at its face follows erfc within 2 %") {
  // Diffusivity 1; at t = 0.01 the heat has gone about 0.2 into a strip of length 1.
  const double t0 = 20, ts = 100, end = 0.01;
  for (const int dimension : {2, 3}) {
    for (const double theta : {1.0, 0.5}) {
      CAPTURE(dimension);
      CAPTURE(theta);
      const Strip strip = dimension == 2 ? Strip({1, 0.01}, {200, 1}, ts) : Strip({1, 0.01, 0.01}, {200, 1, 1}, ts);
      const Run r = run(strip.problem, {end / 200, theta, t0, 200, 200});
      REQUIRE(r.temperatures.size() == 2);
      double worst = 0;
      for (std::size_t n = 0; n < strip.mesh.num_nodes(); ++n) {
        const double x = strip.mesh.coords[3 * n];
        const double exact = t0 + (ts - t0) * std::erfc(x / (2 * std::sqrt(end)));
        worst = std::max(worst, std::abs(r.at(1, static_cast<int>(n)) - exact) / (ts - t0));
      }
      CHECK(worst < 0.02);
      // The heat a semi-infinite body takes in through its face: 2 k (Ts - T0) sqrt(t / (pi alpha)) per area.
      const double area = dimension == 2 ? 0.01 : 1e-4;
      const double absorbed = 2 * (ts - t0) * std::sqrt(end / std::numbers::pi) * area;
      CHECK(r.budgets[1].stored == doctest::Approx(absorbed).epsilon(0.02));
    }
  }
}

TEST_CASE("the theta-method converges at order 1 (backward Euler) and 2 (Crank-Nicolson) in time") {
  // Held at 0 on x = 0, a uniform source heats the strip from 0: the data agree at t = 0 (no jump
  // at the held face), so Crank-Nicolson keeps its order. Errors at the far end at t = 0.1 against
  // the same mesh stepped 64 times finer.
  Strip strip({1, 0.05}, {40, 1}, 0.0);
  strip.problem.source = 1;
  const int far = nearest_node(strip.mesh, 1, 0);
  const double end = 0.1;
  for (const double theta : {1.0, 0.5}) {
    CAPTURE(theta);
    const Run reference = run(strip.problem, {end / 1280, theta, 0, 1280, 1280});
    std::vector<double> errors;
    for (const int steps : {10, 20, 40}) {
      const Run r = run(strip.problem, {end / steps, theta, 0, steps, steps});
      errors.push_back(std::abs(r.at(1, far) - reference.at(1, far)));
    }
    const double rate = std::log2(errors[1] / errors[2]);
    MESSAGE("theta ", theta, ": errors ", errors[0], " ", errors[1], " ", errors[2], ", rate ", std::log2(errors[0] / errors[1]), " ", rate);
    CHECK(rate == doctest::Approx(theta == 1 ? 1.0 : 2.0).epsilon(0.1));
  }
}

TEST_CASE("the heat stored equals the heat in through the held face (backward Euler, either capacity)") {
  const Strip strip({1, 0.1}, {50, 2}, 100);
  for (const auto lumping : {MassLumping::Consistent, MassLumping::Lumped}) {
    const Run r = run(strip.problem, {0.002, 1.0, 20, 50, 10}, lumping);
    REQUIRE(r.budgets.size() == 6);
    for (const auto& b : r.budgets) {
      CHECK(b.in_loads == doctest::Approx(0).scale(1));  // insulated elsewhere
      CHECK(b.stored == doctest::Approx(b.in_fixed).epsilon(1e-9));
    }
    CHECK(r.budgets.back().stored > 0);
  }
}

TEST_CASE("with no flux and a uniform start the temperature stays uniform, in 3D, direct or CG with AMG") {
  const Strip strip({1, 0.5, 0.5}, {6, 3, 3}, std::nullopt);
  for (const char* method : {"band-cholesky", "cg"}) {
    CAPTURE(method);
    const Run r = run(strip.problem, {0.1, 0.5, 37.5, 20, 5}, MassLumping::Consistent, method);
    for (const auto& t : r.temperatures)
      for (double v : t) CHECK(v == doctest::Approx(37.5).epsilon(1e-12));
    CHECK(r.budgets.back().stored == doctest::Approx(0).scale(1));
  }
}

TEST_CASE("a flux into an insulated strip is all stored, with convection the budget still closes") {
  Strip strip({1, 0.1}, {20, 2}, std::nullopt);
  auto flux = load_on(strip.mesh, "xmin", BoundaryLoad::Kind::Flux);
  flux.value = 50;
  strip.problem.loads.push_back(flux);
  auto air = load_on(strip.mesh, "xmax", BoundaryLoad::Kind::Convection);
  air.h = 10;
  air.T_inf = 0;
  strip.problem.loads.push_back(air);
  const Run r = run(strip.problem, {0.05, 1.0, 20, 40, 40});
  const auto& b = r.budgets.back();
  CHECK(b.in_fixed == 0);
  CHECK(b.stored == doctest::Approx(b.in_loads).epsilon(1e-9));
  CHECK(b.in_loads < 50 * 0.1 * 2.0);  // the flux's total minus what the air took
}

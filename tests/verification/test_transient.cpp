// Transient heat against theory: a semi-infinite slab against erfc, the order of the
// theta-method in time (1 for backward Euler, 2 for Crank-Nicolson), the heat budget (stored heat
// equals what came in) and a body with nothing driving it staying as it was. Values that follow
// tables of (t, value) pairs: the loads and temperatures a step takes against assembling them
// afresh, the heat a flux table brings in, a slab whose face warms linearly in time against
// Carslaw and Jaeger's 4 a t i^2erfc, at the same orders in time.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>

#include "fem/analysis/transient_heat.hpp"
#include "fem/assembly/assembler.hpp"
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
  const HeatHistory history(p, out.dofs);
  SolverOptions options;
  options.method = parse_choice<SolverMethodId>(method).value();
  options.preconditioner = Preconditioner::Amg;
  options.tolerance = 1e-12;
  auto solver = make_solver(options);
  out.report = solve_transient(k.matrix, c, history, settings, *solver, {}, [&](const TransientState& s) {
    std::vector<double> t(mesh.num_nodes());
    for (std::size_t n = 0; n < t.size(); ++n) t[n] = s.temperature[out.dofs.dof(static_cast<int>(n), 0)];
    out.temperatures.push_back(std::move(t));
    out.budgets.push_back(s.budget);
  });
  return out;
}

// The theta-method's order in time at `probe`, t = end: the errors of 10, 20 and 40 steps against
// the same mesh stepped 1280 times; 1 for backward Euler, 2 for Crank-Nicolson.
void check_order_in_time(const Problem& p, double end, int probe) {
  for (const double theta : {1.0, 0.5}) {
    CAPTURE(theta);
    const Run reference = run(p, {end / 1280, theta, 0, 1280, 1280});
    std::vector<double> errors;
    for (const int steps : {10, 20, 40}) {
      const Run r = run(p, {end / steps, theta, 0, steps, steps});
      errors.push_back(std::abs(r.at(1, probe) - reference.at(1, probe)));
    }
    const double rate = std::log2(errors[1] / errors[2]);
    MESSAGE("theta ", theta, ": errors ", errors[0], " ", errors[1], " ", errors[2], ", rate ",
            std::log2(errors[0] / errors[1]), " ", rate);
    CHECK(rate == doctest::Approx(theta == 1 ? 1.0 : 2.0).epsilon(0.1));
  }
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
  check_order_in_time(strip.problem, end, far);
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

namespace {

TimeTable table(std::vector<double> times, std::vector<double> values) {
  TimeTable t;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

// `p` with every table replaced by its value at t: the problem a static run at that time solves.
Problem at_time(Problem p, double t) {
  for (auto& l : p.loads) {
    if (l.table) (l.kind == BoundaryLoad::Kind::Convection ? l.T_inf : l.value) = l.table->value_at(t);
    l.table.reset();
  }
  for (auto& d : p.dirichlet) {
    if (d.table) d.value[0] = d.table->value_at(t);
    d.table.reset();
  }
  if (p.source_table) p.source = p.source_table->value_at(t);
  p.source_table.reset();
  return p;
}

// A strip driven by a table of every kind: a temperature on xmin, a flux on ymin, air on xmax
// whose temperature follows a table, and a source.
Strip driven_strip() {
  Strip strip({1, 0.2}, {10, 3}, 0.0);
  strip.problem.dirichlet[0].table = table({0, 2}, {10, 50});
  auto flux = load_on(strip.mesh, "ymin", BoundaryLoad::Kind::Flux);
  flux.table = table({0.5, 1, 3}, {0, 40, -10});
  strip.problem.loads.push_back(flux);
  auto air = load_on(strip.mesh, "xmax", BoundaryLoad::Kind::Convection);
  air.h = 7;
  air.T_inf = 15;  // ymax's air stays at 15
  strip.problem.loads.push_back(air);
  air.group = "ymax";
  air.facets = strip.mesh.find_group("ymax")->elements;
  air.table = table({1}, {-5});
  strip.problem.loads.push_back(air);
  strip.problem.source_table = table({0, 4}, {100, 300});
  return strip;
}

}  // namespace

TEST_CASE("a table of (t, value) pairs is linear between its times and held beyond them") {
  const TimeTable ramp = table({0, 600, 3600}, {20, 300, 300});
  CHECK(ramp.value_at(-5) == 20);
  CHECK(ramp.value_at(0) == 20);
  CHECK(ramp.value_at(150) == doctest::Approx(90));
  CHECK(ramp.value_at(600) == 300);
  CHECK(ramp.value_at(1e6) == 300);
  const TimeTable fall = table({1, 3}, {10, -10});
  CHECK(fall.value_at(2.5) == doctest::Approx(-5));
  CHECK(fall.value_at(0) == 10);
  CHECK(table({7}, {4}).value_at(-1e9) == 4);
  CHECK(table({7}, {4}).value_at(1e9) == 4);
}

TEST_CASE("a step's loads and held temperatures are those assembled afresh with every table's value at its times") {
  const Strip strip = driven_strip();
  const Problem& p = strip.problem;
  const DofMap dofs = make_dof_map(strip.mesh.num_nodes(), 1);
  const HeatHistory history(p, dofs);
  CHECK(history.tables().size() == 4);
  const auto n = static_cast<std::size_t>(dofs.num_dofs());
  for (const auto& [t0, t1, theta] : {std::tuple{0.0, 0.0, 1.0}, {0.2, 0.7, 1.0}, {0.7, 1.6, 0.5}, {2.5, 3.5, 0.6}, {4.0, 9.0, 0.5}}) {
    CAPTURE(t0);
    CAPTURE(t1);
    std::vector<double> f(n);
    history.load(t0, t1, theta, f);
    const auto f0 = assemble_loads(at_time(p, t0), dofs), f1 = assemble_loads(at_time(p, t1), dofs);
    double scale = 0;
    for (double v : f1) scale = std::max(scale, std::abs(v));
    REQUIRE(scale > 0);
    for (std::size_t i = 0; i < n; ++i) CHECK(f[i] == doctest::Approx(theta * f1[i] + (1 - theta) * f0[i]).scale(scale));
    std::vector<double> held(n, -1.0);
    history.prescribed(t1, held);
    const Constraints expected = collect_constraints(at_time(p, t1), dofs);
    for (std::size_t i = 0; i < n; ++i)
      CHECK(held[i] == (expected.is_fixed(static_cast<std::int64_t>(i)) ? expected.prescribed[i] : -1.0));
  }
}

TEST_CASE("two groups holding a node are refused when their tables part at some time") {
  Strip strip({1, 0.2}, {4, 2}, 20.0);
  strip.problem.dirichlet.push_back({"ymin", nodes_of_groups(strip.mesh, {"ymin"}), {true, false, false}, {20, 0, 0}, {}});
  const DofMap dofs = make_dof_map(strip.mesh.num_nodes(), 1);
  strip.problem.dirichlet[1].table = table({0, 10}, {20, 20});  // the same as the constant 20: allowed
  CHECK_NOTHROW(HeatHistory(strip.problem, dofs));
  strip.problem.dirichlet[1].table = table({0, 10, 20}, {20, 20, 80});
  try {
    HeatHistory history(strip.problem, dofs);
    FAIL("the tables part at t = 20");
  } catch (const CaseError& e) {
    CHECK(std::string(e.what()).find("groups 'xmin' and 'ymin' prescribe different values") != std::string::npos);
    CHECK(std::string(e.what()).find("at t = 20 s") != std::string::npos);
  }
}

TEST_CASE("the heat a flux table brings in is all stored: the theta-method's own quadrature of the flux") {
  // An insulated strip heated on xmin (edge 0.1, unit thickness) by a flux rising to 100 and
  // falling to 20; heat stored from C (T - T0), against the flux summed as a step takes it.
  const std::vector<double> times = {0, 0.02, 0.05}, values = {0, 100, 20};
  const double area = 0.1;
  for (const double dt : {0.002, 0.003}) {  // steps on the table's times, and across them
    for (const double theta : {1.0, 0.5}) {
      CAPTURE(dt);
      CAPTURE(theta);
      Strip strip({1, 0.1}, {50, 2}, std::nullopt);
      auto flux = load_on(strip.mesh, "xmin", BoundaryLoad::Kind::Flux);
      flux.table = table(times, values);
      strip.problem.loads.push_back(flux);
      const int steps = static_cast<int>(std::lround(0.06 / dt));
      const Run r = run(strip.problem, {dt, theta, 20, steps, steps});
      double inflow = 0;
      for (int n = 0; n < steps; ++n)
        inflow += dt * area * (theta * flux.table->value_at((n + 1) * dt) + (1 - theta) * flux.table->value_at(n * dt));
      const auto graph = renumber::node_graph_from_elements(strip.mesh.cells.offset, strip.mesh.cells.node,
                                                            static_cast<int>(strip.mesh.num_nodes()));
      const CsrMatrix c = assemble_mass(strip.problem, r.dofs, graph);
      double stored = 0;
      for (std::size_t node = 0; node < strip.mesh.num_nodes(); ++node) {
        const auto i = r.dofs.dof(static_cast<int>(node), 0);
        for (auto k = c.row_ptr[i]; k < c.row_ptr[i + 1]; ++k) stored += c.val[k] * (r.at(1, static_cast<int>(node)) - 20);
      }
      CHECK(stored == doctest::Approx(inflow).epsilon(1e-10));
      CHECK(r.budgets.back().stored == doctest::Approx(inflow).epsilon(1e-10));
      CHECK(r.budgets.back().in_loads == doctest::Approx(inflow).epsilon(1e-10));
      // On the table's times Crank-Nicolson's trapezoids integrate the piecewise linear flux exactly.
      const double exact = area * (0.5 * 0.02 * 100 + 0.5 * (100 + 20) * 0.03 + 20 * 0.01);
      if (theta == 0.5 && dt == 0.002) CHECK(inflow == doctest::Approx(exact).epsilon(1e-12));
      else CHECK(std::abs(inflow - exact) > 1e-4 * exact);
    }
  }
}

TEST_CASE("a source table heats an insulated body uniformly by the source summed as the steps take it") {
  Strip strip({1, 0.5, 0.5}, {4, 2, 2}, std::nullopt);
  strip.problem.source_table = table({0, 1}, {0, 50});
  for (const double theta : {1.0, 0.5}) {
    const Run r = run(strip.problem, {0.25, theta, 10, 6, 6});
    double expected = 10;  // rho c = 1
    for (int n = 0; n < 6; ++n)
      expected += 0.25 * (theta * strip.problem.source_table->value_at((n + 1) * 0.25) +
                          (1 - theta) * strip.problem.source_table->value_at(n * 0.25));
    for (double v : r.temperatures.back()) CHECK(v == doctest::Approx(expected).epsilon(1e-11));
  }
}

namespace {

// The second integral of erfc: i^2erfc(z) = ((1 + 2 z^2) erfc(z) - 2 z exp(-z^2) / sqrt(pi)) / 4.
double i2erfc(double z) {
  return ((1 + 2 * z * z) * std::erfc(z) - 2 * z * std::exp(-z * z) / std::sqrt(std::numbers::pi)) / 4;
}

// A strip whose face x = 0 warms as a t from 0 (diffusivity 1).
Strip ramped_strip(std::vector<double> size, std::vector<int> divisions, double a, double end) {
  Strip strip(std::move(size), std::move(divisions), 0.0);
  strip.problem.dirichlet[0].table = table({0, end}, {0, a * end});
  return strip;
}

}  // namespace

TEST_CASE("a semi-infinite slab whose face warms linearly in time follows 4 a t i^2erfc within 2 %") {
  // Carslaw and Jaeger 2.5: T(0, t) = a t gives T(x, t) = 4 a t i^2erfc(x / (2 sqrt(alpha t))).
  const double a = 1e4, end = 0.01;
  for (const int dimension : {2, 3}) {
    for (const double theta : {1.0, 0.5}) {
      CAPTURE(dimension);
      CAPTURE(theta);
      const Strip strip = dimension == 2 ? ramped_strip({1, 0.01}, {200, 1}, a, end)
                                         : ramped_strip({1, 0.01, 0.01}, {200, 1, 1}, a, end);
      const Run r = run(strip.problem, {end / 200, theta, 0, 200, 100});
      REQUIRE(r.temperatures.size() == 3);
      for (const int out : {1, 2}) {
        const double t = out * end / 2;
        double worst = 0;
        for (std::size_t n = 0; n < strip.mesh.num_nodes(); ++n) {
          const double exact = 4 * a * t * i2erfc(strip.mesh.coords[3 * n] / (2 * std::sqrt(t)));
          worst = std::max(worst, std::abs(r.at(out, static_cast<int>(n)) - exact) / (a * t));
        }
        MESSAGE("dimension ", dimension, " theta ", theta, " t ", t, ": largest error ", worst, " of a t");
        CHECK(worst < 0.02);
      }
      // The heat taken in through the face: (4/3) k a t^(3/2) / sqrt(pi alpha) per area.
      const double area = dimension == 2 ? 0.01 : 1e-4;
      const double absorbed = 4.0 / 3 * a * std::pow(end, 1.5) / std::sqrt(std::numbers::pi) * area;
      CHECK(r.budgets.back().stored == doctest::Approx(absorbed).epsilon(0.02));
      CHECK(r.budgets.back().in_fixed == doctest::Approx(r.budgets.back().stored).epsilon(1e-9));
    }
  }
}

TEST_CASE("a face warming linearly keeps the theta-method's order in time: 1 (backward Euler), 2 (Crank-Nicolson)") {
  // The face and the body agree at t = 0 (both 0), so Crank-Nicolson keeps its order. Errors at
  // x = 0.25, t = 0.1 against the same mesh stepped 64 times finer, as for the held face above.
  const double a = 100, end = 0.1;
  const Strip strip = ramped_strip({1, 0.05}, {40, 1}, a, end);
  const int probe = nearest_node(strip.mesh, 0.25, 0);
  check_order_in_time(strip.problem, end, probe);
}

// The frontal solver gives the CG's answers on elasticity boxes with prescribed non-zero
// displacements, in 2D and 3D, linear and quadratic, whatever its pivot block, element order,
// factor store or dense back-end.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "fem/assembly/residual.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/frontal/frontal_solver.hpp"
#include "tests/solvers/frontal/frontal_test_setup.hpp"

using namespace fem;
using namespace fem::frontal_test;

namespace {

struct Solved {
  std::vector<double> u;
  SolveReport report;
};

Solved solve_frontal(const BoxSystem& s, const FrontalSettings& settings, bool out_of_core = false,
                     const ElementSystem* system = nullptr) {
  SolverOptions options;
  options.method = SolverMethodId::Frontal;
  options.out_of_core = out_of_core;
  Solved r;
  r.u.assign(s.dofs.num_dofs(), 0.0);
  r.report = make_frontal_solver(options, settings)->solve(system ? *system : s.elements.system, r.u);
  return r;
}

void check_against_cg(const BoxSystem& s, const Solved& r, const std::vector<double>& reference) {
  CHECK(max_difference(r.u, reference) <= 1e-10 * max_abs(reference));
  CHECK(element_relative_residual(s.problem, s.dofs, s.constraints, r.u) < 1e-12);
}

struct ElementCase {
  ElementShape shape;
  int order;
  bool serendipity;
  std::vector<int> divisions;
  const char* name;
};

}  // namespace

TEST_CASE("frontal on the CPU matches CG on 2D and 3D boxes, linear and quadratic") {
  const ElementCase cases[] = {
      {ElementShape::Quadrilateral, 1, false, {9, 6}, "quad4"},
      {ElementShape::Quadrilateral, 2, true, {5, 4}, "quad8"},
      {ElementShape::Triangle, 2, false, {4, 5}, "tri6"},
      {ElementShape::Hexahedron, 1, false, {4, 3, 3}, "hex8"},
      {ElementShape::Hexahedron, 2, true, {3, 2, 2}, "hex20"},
      {ElementShape::Tetrahedron, 2, false, {2, 2, 2}, "tet10"},
  };
  for (const auto& ec : cases) {
    CAPTURE(ec.name);
    const auto s = make_box_system(ec.shape, ec.order, ec.serendipity, ec.divisions);
    const auto reference = reference_solution(*s);
    REQUIRE(max_abs(reference) > 1e-5);
    const auto r = solve_frontal(*s, {"openmp", 16});
    check_against_cg(*s, r, reference);
    // the prescribed values come back as given
    for (std::size_t i = 0; i < r.u.size(); ++i)
      if (s->constraints.is_fixed(static_cast<std::int64_t>(i))) CHECK(r.u[i] == s->constraints.prescribed[i]);
    const auto& f = r.report.figures;
    CHECK(f.at("front_max") > 0);
    CHECK(f.at("front_max") < static_cast<double>(s->dofs.num_dofs()));
    CHECK(f.at("front_rms") <= f.at("front_max"));
    CHECK(f.at("factor_bytes") > 0);
    CHECK(f.at("flops") > 0);
  }
}

TEST_CASE("frontal answers do not depend on the pivot block") {
  const auto s = make_box_system(ElementShape::Quadrilateral, 2, false, {5, 4});
  const auto reference = reference_solution(*s);
  double previous_front = 0;
  for (const std::int64_t block : {1, 3, 16, 100000}) {
    CAPTURE(block);
    const auto r = solve_frontal(*s, {"serial", block});
    check_against_cg(*s, r, reference);
    // a bigger block waits for more pivots, so the front can only grow
    CHECK(r.report.figures.at("front_max") >= previous_front);
    previous_front = r.report.figures.at("front_max");
  }
  CHECK(previous_front == static_cast<double>(s->dofs.num_dofs() - s->constraints.count));  // one step: everything
}

TEST_CASE("frontal stays correct on an element order that makes the front large") {
  const auto s = make_box_system(ElementShape::Quadrilateral, 1, false, {12, 8});
  const auto reference = reference_solution(*s);
  const auto good = solve_frontal(*s, {"openmp", 8});
  // Shuffle the cells (the load facets of this problem are none: gravity is a body load).
  std::vector<std::int64_t> shuffled(s->elements.order.begin(), s->elements.order.end());
  std::mt19937 gen(42);
  std::shuffle(shuffled.begin(), shuffled.end(), gen);
  ElementSystem system = s->elements.system;
  system.order = shuffled;
  const auto bad = solve_frontal(*s, {"openmp", 8}, false, &system);
  check_against_cg(*s, bad, reference);
  CHECK(bad.report.figures.at("front_max") > 2 * good.report.figures.at("front_max"));
}

TEST_CASE("frontal out of core gives exactly the in-core answer") {
  const auto s = make_box_system(ElementShape::Hexahedron, 1, false, {3, 3, 2});
  const auto in_core = solve_frontal(*s, {"openmp", 5});
  const auto out_of_core = solve_frontal(*s, {"openmp", 5}, true);
  CHECK(out_of_core.u == in_core.u);
  CHECK(out_of_core.report.figures.at("factor_bytes") == in_core.report.figures.at("factor_bytes"));
  CHECK(out_of_core.report.figures.at("out_of_core") == 1);
  // the file store keeps the factor out of the solver's memory
  CHECK(out_of_core.report.memory_bytes + in_core.report.figures.at("factor_bytes") == in_core.report.memory_bytes);
}

TEST_CASE("frontal through the registry and on the GPU back-ends, where they run") {
  const auto s = make_box_system(ElementShape::Quadrilateral, 2, true, {6, 4});
  const auto reference = reference_solution(*s);
  for (const std::string device : {"cpu", "opencl", "cuda"}) {
    CAPTURE(device);
    const std::string backend = device == "cpu" ? "openmp" : device;
    const auto status = kernels::dense_backend_status(backend);
    SolverOptions options;
    options.method = SolverMethodId::Frontal;
    options.device = parse_choice<Device>(device).value();
    if (!status.available) {
      CHECK_THROWS_AS(make_solver(options), SolverUnavailable);
      MESSAGE("skipping frontal:" << device << ": " << status.reason);
      continue;
    }
    auto solver = make_solver(options);
    REQUIRE(solver->uses_element_matrices());
    std::vector<double> u(s->dofs.num_dofs(), 0.0);
    const auto report = solver->solve(s->elements.system, u);
    check_against_cg(*s, {u, report}, reference);
    CHECK(report.figures.at("device_share") > 0);
  }
}

// Load cases: all solved on one assembly of K, each equal to its loads run alone as one load set,
// and additive (the case with loads A and B is the sum of A's and B's), with every solver path:
// a prepared direct solve, the frontal method case after case, and CG.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/load_cases.hpp"
#include "fem/pipeline/make_mesh.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/renumber/node_graph.hpp"

using namespace fem;
namespace fs = std::filesystem;

namespace {

// A plane-stress strip clamped at xmin; `boundary` and `loads` are added to the common entries,
// `tail` is written after them (a load_cases list).
std::string strip_case(const std::string& boundary, const std::string& loads, const std::string& tail) {
  return R"(mesh:
  box: {size: [4, 1], divisions: [16, 4]}
  element: quad
  order: 2
physics: {type: elasticity, model: plane_stress, thickness: 0.1}
materials: [{group: box, E: 70e9, nu: 0.3, density: 2700}]
boundary:
  - {group: xmin, fix: [x, y]}
)" + boundary + "loads: {" + loads + "}\nsolver: {tolerance: 1e-14}\n" + tail;
}

const std::string kTip = "  - {group: xmax, traction: [0, -1e6]}\n";
const std::string kTop = "  - {group: ymax, pressure: 2e6}\n";
const std::string kWeight = "gravity: [0, -9.81]";
const std::string kCases = R"(load_cases:
  - {name: tip, boundary: [{group: xmax, traction: [0, -1e6]}]}
  - {name: top_and_weight, boundary: [{group: ymax, pressure: 2e6}], loads: {gravity: [0, -9.81]}}
  - {name: all, boundary: [{group: xmax, traction: [0, -1e6]}, {group: ymax, pressure: 2e6}], loads: {gravity: [0, -9.81]}}
)";

Case written_case(const std::string& text) {
  const fs::path file = fs::temp_directory_path() / ("fem-load-cases-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(file) << text;
  Case c = load_case(file);
  fs::remove(file);
  return c;
}

// Each load set's solution in mesh order: the case's load cases solved together or, without
// any, its one load set.
std::vector<std::vector<double>> solve_load_sets(const Case& c, const std::string& method) {
  const Mesh mesh = make_mesh(c.mesh);
  const Problem problem = build_problem(c, mesh);
  const auto cases = resolve_load_cases(c, problem);
  const auto graph =
      renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  const NodeOrdering ordering = order_nodes(graph, "rcm", parse_choice<SolverMethodId>(method).value(), problem.physics.dofs_per_node());
  DiscreteSystem system(problem, graph, ordering);
  SolverOptions options = c.solver;
  options.method = parse_choice<SolverMethodId>(method).value();
  const auto solver = make_solver(options);
  const bool by_elements = solver->uses_element_matrices();
  system.prepare(by_elements);
  const auto n = static_cast<std::size_t>(system.dofs().num_dofs());
  std::vector<std::vector<double>> out;
  if (cases.empty()) {
    std::vector<double> u(n, 0.0);
    system.solve(*solver, u);
    CHECK(system.relative_residual(by_elements, u) < 1e-10);
    out.push_back(system.in_mesh_order(u));
    return out;
  }
  const LoadCaseSystem together(system, cases, by_elements);
  std::vector<double> u(n * cases.size(), 0.0);
  const SolveReport report = together.solve(*solver, u);
  CHECK(report.figures.at("right_hand_sides") == cases.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const std::span<const double> one(u.data() + k * n, n);
    CHECK(together.relative_residual(static_cast<int>(k), one) < 1e-10);
    out.push_back(system.in_mesh_order(one));
  }
  return out;
}

double relative_difference(const std::vector<double>& u, const std::vector<double>& reference) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    worst = std::max(worst, std::abs(u[i] - reference[i]));
    scale = std::max(scale, std::abs(reference[i]));
  }
  REQUIRE(scale > 0);
  return worst / scale;
}

}  // namespace

TEST_CASE("three load cases on one K: each is its loads run alone, and they superpose") {
  const Case together = written_case(strip_case("", "", kCases));
  REQUIRE(together.load_cases.size() == 3);
  const std::vector<Case> alone = {written_case(strip_case(kTip, "", "")),
                                   written_case(strip_case(kTop, kWeight, "")),
                                   written_case(strip_case(kTip + kTop, kWeight, ""))};
  for (const char* method : {"band-cholesky", "frontal", "cg"}) {
    CAPTURE(method);
    const auto u = solve_load_sets(together, method);
    REQUIRE(u.size() == 3);
    for (std::size_t k = 0; k < 3; ++k) {
      CAPTURE(together.load_cases[k].name);
      CHECK(relative_difference(u[k], solve_load_sets(alone[k], method)[0]) < 1e-8);
    }
    std::vector<double> sum(u[0].size());
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = u[0][i] + u[1][i];
    CHECK(relative_difference(sum, u[2]) < 1e-6);
  }
}

TEST_CASE("a load case adds its loads to the common loads and prescribed values") {
  // The common set: weight and a prescribed end displacement, whose lifting every case shares.
  const std::string common = "  - {group: xmax, displacement: {x: 1e-5}}\n";
  const Case together = written_case(strip_case(common, kWeight, kCases));
  const Case tip_alone = written_case(strip_case(common + kTip, kWeight, ""));
  const Case all_alone = written_case(strip_case(common + kTip + kTop, "gravity: [0, -19.62]", ""));  // weight twice
  for (const char* method : {"band-cholesky", "frontal"}) {
    CAPTURE(method);
    const auto u = solve_load_sets(together, method);
    CHECK(relative_difference(u[0], solve_load_sets(tip_alone, method)[0]) < 1e-8);
    CHECK(relative_difference(u[2], solve_load_sets(all_alone, method)[0]) < 1e-8);
  }
}

// The memory estimates against what the pipeline really builds, and the refusals they feed:
// the box a refusal proposes must itself fit.
#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <tuple>

#include "fem/config.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/resources/case_fit.hpp"
#include "fem/resources/memory_estimate.hpp"
#include "fem/resources/time_estimate.hpp"
#include "solvers/linear_solver.hpp"

using namespace fem;
using namespace fem::resources;

namespace {

BoxSpec box(std::vector<int> divisions, ElementShape shape, int order) {
  BoxSpec b;
  b.size.assign(divisions.size(), 1.0);
  b.divisions = std::move(divisions);
  b.shape = shape;
  b.order = order;
  return b;
}

Case box_case(const BoxSpec& b) {
  Case c;
  c.file = "big.yaml";
  c.mesh.source = MeshSpec::Source::Box;
  c.mesh.box = b;
  c.physics.type = PhysicsType::Elasticity;
  c.solver.method = SolverMethodId::Cg;
  return c;
}

}  // namespace

TEST_CASE("box sizes are exact and node couplings within a factor 1.5 of the real graph") {
  const std::vector<BoxSpec> boxes = {box({30, 20}, ElementShape::Quadrilateral, 1), box({20, 30}, ElementShape::Triangle, 1),
                                      box({20, 15}, ElementShape::Quadrilateral, 2), box({20, 15}, ElementShape::Triangle, 2),
                                      box({12, 10, 8}, ElementShape::Hexahedron, 1), box({10, 9, 8}, ElementShape::Tetrahedron, 1),
                                      box({6, 7, 5}, ElementShape::Hexahedron, 2), box({7, 6, 6}, ElementShape::Tetrahedron, 2)};
  for (const auto& b : boxes) {
    const Mesh mesh = make_box_mesh(b);
    const MeshSize size = box_mesh_size(b);
    CAPTURE(size.nodes_per_cell);
    CAPTURE(size.dimension);
    CHECK(size.nodes == static_cast<std::int64_t>(mesh.num_nodes()));
    CHECK(size.cells == static_cast<std::int64_t>(mesh.cells.size()));
    CHECK(size.nodes_per_cell == static_cast<int>(mesh.cells.nodes_of(0).size()));
    const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    const double real = static_cast<double>(graph.num_edges_directed() + mesh.num_nodes());
    const double ratio = static_cast<double>(estimated_node_couplings(size)) / real;
    CAPTURE(ratio);
    CHECK(ratio > 1 / 1.5);
    CHECK(ratio < 1.5);
  }
}

TEST_CASE("a refusal names the estimate and what is available, and only when it does not fit") {
  CHECK_NOTHROW(require_memory(100, 200, "the thing", ""));
  try {
    require_memory(std::size_t(3) << 30, std::size_t(1) << 30, "the thing", "try less");
    FAIL("no refusal");
  } catch (const ResourceError& e) {
    const std::string m = e.what();
    CHECK(m.find("the thing needs about 3 GiB but 1 GiB is available; try less") != std::string::npos);
  }
}

TEST_CASE("a box too large for the memory is refused with divisions that fit") {
  const std::size_t available = std::size_t(1) << 30;
  for (const auto& b : {box({100000, 100000}, ElementShape::Quadrilateral, 1), box({1000, 1000, 1000}, ElementShape::Hexahedron, 1),
                        box({300, 700, 500}, ElementShape::Tetrahedron, 2)}) {
    const Case c = box_case(b);
    std::string message;
    try {
      require_mesh_fits(c, available);
    } catch (const ResourceError& e) {
      message = e.what();
    }
    CAPTURE(message);
    REQUIRE(message.find("big.yaml") != std::string::npos);
    std::smatch m;
    REQUIRE(std::regex_search(message, m, std::regex(R"(divisions: \[([0-9, ]+)\])")));
    BoxSpec smaller = b;
    smaller.divisions.clear();
    const std::string list = m[1];
    const std::regex number("[0-9]+");
    for (std::sregex_iterator it(list.begin(), list.end(), number), end; it != end; ++it)
      smaller.divisions.push_back(std::stoi(it->str()));
    REQUIRE(smaller.divisions.size() == b.divisions.size());
    CHECK(box_case_bytes(box_case(smaller)) <= available);
    CHECK(box_case_bytes(box_case(smaller)) > available / 4);  // and not needlessly small
    CHECK_NOTHROW(require_mesh_fits(box_case(smaller), available));
  }
}

#if FEM_WITH_METIS
namespace {

// A diagonally dominant matrix on the box's node graph, `d` equations per node: the pattern of
// the FE system, which is all the fill depends on.
CsrMatrix matrix_on_graph(const renumber::NodeGraph& graph, int d) {
  CsrMatrix a;
  a.rows = static_cast<std::int64_t>(graph.num_nodes()) * d;
  a.row_ptr.assign(1, 0);
  for (int i = 0; i < graph.num_nodes(); ++i) {
    std::vector<int> nodes(graph.neighbours_of(i).begin(), graph.neighbours_of(i).end());
    nodes.push_back(i);
    std::sort(nodes.begin(), nodes.end());
    for (int r = 0; r < d; ++r) {
      for (int j : nodes)
        for (int c = 0; c < d; ++c) {
          a.col.push_back(j * d + c);
          a.val.push_back(j != i ? -0.1 : r == c ? 0.1 * d * static_cast<double>(nodes.size()) + 1 : 0.0);
        }
      a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
    }
  }
  return a;
}

}  // namespace

TEST_CASE("the multifrontal estimate before assembly is within a factor 2 of what the factorisation holds") {
  struct Box {
    BoxSpec spec;
    int dofs_per_node;
  };
  const std::vector<Box> boxes = {{box({14, 12, 10}, ElementShape::Hexahedron, 1), 3}, {box({6, 5, 5}, ElementShape::Tetrahedron, 2), 3},
                                  {box({22, 20, 18}, ElementShape::Hexahedron, 1), 1}, {box({90, 80}, ElementShape::Quadrilateral, 1), 2},
                                  {box({40, 50}, ElementShape::Triangle, 2), 1}};
  for (const auto& [spec, d] : boxes) {
    const Mesh mesh = make_box_mesh(spec);
    const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    const auto identity = renumber::Permutation::identity(graph.num_nodes());
    const SystemSize system = system_size(graph, renumber::ordering_metrics(graph, identity, d), mesh.dimension, d);
    const CsrMatrix a = matrix_on_graph(graph, d);
    const std::vector<double> b(static_cast<std::size_t>(a.rows), 1.0);
    std::vector<double> x(b.size());
    SolverOptions options;
    options.method = SolverMethodId::Multifrontal;
    const SolveReport report = make_solver(options)->solve(AssembledSystem{a, b, {d, mesh.dimension, {}}}, x);
    const double used = report.figures.at("factorisation_bytes"), flops = report.figures.at("flops");
    const SolverEstimate e = estimate_solver(SolverMethodId::Multifrontal, system);
    CAPTURE(system.dofs);
    CAPTURE(mesh.dimension);
    CAPTURE(d);
    CAPTURE(used);
    CAPTURE(e.bytes);
    CHECK(static_cast<double>(e.bytes) > used / 2);
    CHECK(static_cast<double>(e.bytes) < used * 2);
    const double estimated_flops = estimate_time(SolverMethodId::Multifrontal, system, {}, {1e9, 1e9}).flops;
    CHECK(estimated_flops > flops / 3);
    CHECK(estimated_flops < flops * 3);
  }
}
#endif

TEST_CASE("a .geo whose estimated cells would not fit is refused with a mesh.size that fits") {
  const std::size_t available = std::size_t(1) << 30;
  MeshSpec spec;
  spec.source = MeshSpec::Source::Geo;
  spec.file = "part.geo";
  for (auto [dimension, shape, order, measure] : {std::tuple{3, ElementShape::Tetrahedron, 2, 2.5}, std::tuple{2, ElementShape::Triangle, 1, 40.0},
                                                  std::tuple{3, ElementShape::Hexahedron, 2, 0.3}}) {
    CAPTURE(dimension);
    spec.order = order;
    spec.size = dimension == 3 ? 0.004 : 0.0005;
    const auto estimate_at = [&](double size) {
      GeoMeshEstimate e;
      e.dimension = dimension;
      e.shape = shape;
      e.measure = measure;
      e.element_size = size;
      e.cells = cells_of_size(dimension, shape, measure, size);
      return e;
    };
    std::string message;
    try {
      require_geo_mesh_fits(spec, estimate_at(spec.size), available);
    } catch (const ResourceError& e) {
      message = e.what();
    }
    CAPTURE(message);
    REQUIRE(message.find("part.geo: about ") == 0);
    std::smatch m;
    REQUIRE(std::regex_search(message, m, std::regex(R"(mesh\.size ([0-9.e+-]+) would fit)")));
    const double fits = std::stod(m[1]);
    CHECK(fits > spec.size);
    const MeshSize at_fit = geo_mesh_size(estimate_at(fits), order, false);
    const std::size_t bytes = gmsh_meshing_bytes(at_fit) + mesh_bytes(at_fit);
    CHECK(bytes <= available);
    CHECK(bytes > available / 4);  // and not needlessly coarse
    spec.size = fits;
    CHECK_NOTHROW(require_geo_mesh_fits(spec, estimate_at(fits), available));
  }
}

TEST_CASE("a .geo that sets its own sizes finer than mesh.size is told to coarsen them, not mesh.size") {
  // mesh.size caps Gmsh's sizes: advice to set it above the .geo's own sizes would change nothing.
  const std::size_t available = std::size_t(1) << 30;
  MeshSpec spec;
  spec.source = MeshSpec::Source::Geo;
  spec.file = "part.geo";
  GeoMeshEstimate e;
  e.dimension = 2;
  e.shape = ElementShape::Triangle;
  e.measure = 1;
  e.element_size = 1e-5;
  e.cells = cells_of_size(2, ElementShape::Triangle, 1, 1e-5);
  for (double size : {0.0, 0.1}) {
    CAPTURE(size);
    spec.size = size;
    std::string message;
    try {
      require_geo_mesh_fits(spec, e, available);
    } catch (const ResourceError& error) {
      message = error.what();
    }
    CAPTURE(message);
    CHECK(message.find("mesh.size 0") == std::string::npos);
    CHECK(message.find("the .geo sets its sizes itself") != std::string::npos);
    std::smatch m;
    REQUIRE(std::regex_search(message, m, std::regex(R"(elements of about ([0-9.e+-]+) would fit)")));
    GeoMeshEstimate at = e;
    at.element_size = std::stod(m[1]);
    at.cells = cells_of_size(2, ElementShape::Triangle, 1, at.element_size);
    CHECK(at.element_size > 1e-5);
    CHECK_NOTHROW(require_geo_mesh_fits(spec, at, available));  // the same estimate agrees
  }
}

TEST_CASE("nodes of a .geo's estimated mesh follow the element's shape and order") {
  GeoMeshEstimate e;
  e.cells = 1000000;
  const auto nodes = [&](int dimension, ElementShape shape, int order, bool serendipity = false) {
    e.dimension = dimension;
    e.shape = shape;
    return geo_mesh_size(e, order, serendipity).nodes;
  };
  CHECK(nodes(2, ElementShape::Triangle, 1) == 500000);        // two triangles a vertex
  CHECK(nodes(2, ElementShape::Triangle, 2) == 2000000);       // and three edges a vertex
  CHECK(nodes(2, ElementShape::Quadrilateral, 2) == 4000000);  // quad9: vertex, two edges, centre
  CHECK(nodes(2, ElementShape::Quadrilateral, 2, true) == 3000000);
  CHECK(nodes(3, ElementShape::Hexahedron, 2) == 8000000);     // hex27: vertex, 3 edges, 3 faces, centre
  CHECK(nodes(3, ElementShape::Hexahedron, 2, true) == 4000000);
  CHECK(nodes(3, ElementShape::Tetrahedron, 1) < 200000);      // about 5.5 tetrahedra a vertex
}

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <utility>

#include <omp.h>

#include "fem/renumber/node_graph.hpp"
#include "tests/renumber/connectivity_fixtures.hpp"

using namespace fem::renumber;
using fem::renumber::testing::Connectivity;

namespace {

// Reference: every ordered pair of distinct nodes that share an element.
std::set<std::pair<int, int>> reference_edges(const Connectivity& c) {
  std::set<std::pair<int, int>> edges;
  for (int e = 0; e < c.num_elements(); ++e)
    for (std::size_t a = c.offsets[e]; a < c.offsets[e + 1]; ++a)
      for (std::size_t b = c.offsets[e]; b < c.offsets[e + 1]; ++b)
        if (c.nodes[a] != c.nodes[b]) edges.insert({c.nodes[a], c.nodes[b]});
  return edges;
}

}  // namespace

TEST_CASE("node graph of random mixed elements matches the pairs sharing an element") {
  for (unsigned seed : {1u, 2u, 3u}) {
    const Connectivity c = fem::renumber::testing::random_mixed_mesh(seed, 37);
    const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
    REQUIRE(g.num_nodes() == c.num_nodes);
    std::set<std::pair<int, int>> edges;
    for (int i = 0; i < g.num_nodes(); ++i) {
      const auto nb = g.neighbours_of(i);
      for (std::size_t k = 0; k < nb.size(); ++k) {
        CHECK(nb[k] != i);
        if (k > 0) CHECK(nb[k - 1] < nb[k]);  // sorted, no repeats
        edges.insert({i, nb[k]});
      }
    }
    CHECK(edges.size() == g.num_edges_directed());
    CHECK(edges == reference_edges(c));
    // The fourth range of nodes is in no element: isolated vertices.
    int isolated = 0;
    for (int i = 0; i < g.num_nodes(); ++i) isolated += g.degree(i) == 0;
    CHECK(isolated >= 37);
  }
}

TEST_CASE("node graph and incidence are the same on any number of threads, and right on a large mesh") {
  // Many elements a thread and nodes shared across the threads' ranges (the nodes are shuffled).
  const Connectivity c = fem::renumber::testing::random_mixed_mesh(7, 4000);
  const int threads_before = omp_get_max_threads();
  omp_set_num_threads(1);
  const NodeGraph one = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
  const NodeElements one_incidence = elements_of_nodes(c.offsets, c.nodes, c.num_nodes);
  for (int threads : {2, 3, 7}) {
    omp_set_num_threads(threads);
    const NodeGraph many = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
    const NodeElements incidence = elements_of_nodes(c.offsets, c.nodes, c.num_nodes);
    CHECK(many.offset == one.offset);
    CHECK(many.neighbour == one.neighbour);
    CHECK(incidence.offset == one_incidence.offset);
    CHECK(incidence.element == one_incidence.element);
  }
  omp_set_num_threads(threads_before);
  std::set<std::pair<int, int>> edges;
  for (int i = 0; i < one.num_nodes(); ++i)
    for (int j : one.neighbours_of(i)) edges.insert({i, j});
  CHECK(edges.size() == one.num_edges_directed());
  CHECK(edges == reference_edges(c));
  // Each element holding a node appears once in its list, ascending.
  std::vector<std::set<int>> holding(static_cast<std::size_t>(c.num_nodes));
  for (int e = 0; e < c.num_elements(); ++e)
    for (std::size_t a = c.offsets[e]; a < c.offsets[e + 1]; ++a) holding[c.nodes[a]].insert(e);
  for (int i = 0; i < c.num_nodes; ++i) {
    const std::vector<int> listed(one_incidence.element.begin() + static_cast<std::ptrdiff_t>(one_incidence.offset[i]),
                                  one_incidence.element.begin() + static_cast<std::ptrdiff_t>(one_incidence.offset[i + 1]));
    REQUIRE(listed == std::vector<int>(holding[i].begin(), holding[i].end()));
  }
}

TEST_CASE("elements_of_nodes lists each holding element once, ascending") {
  Connectivity c;
  c.num_nodes = 4;
  c.add({0, 1, 1});  // a node repeated inside one element
  c.add({1, 2});
  c.add({2});
  const NodeElements inc = elements_of_nodes(c.offsets, c.nodes, c.num_nodes);
  REQUIRE(inc.offset == std::vector<std::size_t>{0, 1, 3, 5, 5});
  CHECK(std::vector<int>(inc.element.begin(), inc.element.end()) == std::vector<int>{0, 0, 1, 1, 2});
}

TEST_CASE("node graph rejects bad connectivity with a message") {
  Connectivity c;
  c.num_nodes = 3;
  c.add({0, 1, 2});
  std::vector<int> bad_node = c.nodes;
  bad_node[1] = 3;
  bad_node[2] = -1;  // the first bad entry is named, whichever thread finds which
  CHECK_THROWS_WITH_AS(node_graph_from_elements(c.offsets, bad_node, 3),
                       doctest::Contains("entry 1 is 3, outside [0, 3)"), std::invalid_argument);
  std::vector<std::size_t> bad_offsets{0, 2};
  CHECK_THROWS_WITH_AS(node_graph_from_elements(bad_offsets, c.nodes, 3), doctest::Contains("last element offset"),
                       std::invalid_argument);
  CHECK_THROWS_AS(node_graph_from_elements(std::vector<std::size_t>{}, c.nodes, 3), std::invalid_argument);
  CHECK_THROWS_AS(node_graph_from_elements(c.offsets, c.nodes, -1), std::invalid_argument);
}

#include <doctest/doctest.h>

#include <stdexcept>

#include "fem/renumber/breadth_first_sweep.hpp"
#include "fem/renumber/gibbs_poole_stockmeyer.hpp"
#include "fem/renumber/renumber.hpp"
#include "fem/renumber/reverse_cuthill_mckee.hpp"
#include "fem/renumber/sloan.hpp"
#include "tests/renumber/connectivity_fixtures.hpp"

using namespace fem::renumber;
using fem::renumber::testing::Connectivity;

namespace {

constexpr RenumberMethod orderings[] = {RenumberMethod::Rcm, RenumberMethod::Gps, RenumberMethod::Sloan};

NodeGraph graph_of(const Connectivity& c) { return node_graph_from_elements(c.offsets, c.nodes, c.num_nodes); }

// True when every component occupies a contiguous range of new numbers.
bool components_contiguous(const NodeGraph& g, const Permutation& p) {
  std::vector<int> component(g.num_nodes(), -1);
  int count = 0;
  for (int s = 0; s < g.num_nodes(); ++s) {
    if (component[s] != -1) continue;
    std::vector<int> stack{s};
    component[s] = count;
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (int j : g.neighbours_of(v))
        if (component[j] == -1) {
          component[j] = count;
          stack.push_back(j);
        }
    }
    ++count;
  }
  std::vector<char> finished(count, 0);
  for (int k = 1; k < g.num_nodes(); ++k) {
    const int before = component[p.old_of_new[k - 1]], now = component[p.old_of_new[k]];
    if (now != before) {
      finished[before] = 1;
      if (finished[now]) return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("every method gives a valid permutation on parts, isolated nodes and mixed elements") {
  for (unsigned seed : {31u, 32u, 33u}) {
    const Connectivity c = fem::renumber::testing::random_mixed_mesh(seed, 60);
    const NodeGraph g = graph_of(c);
    for (RenumberMethod m : orderings) {
      CAPTURE(method_name(m));
      const Permutation p = renumber(g, m);
      REQUIRE(p.size() == c.num_nodes);
      CHECK(is_valid_permutation(p));
      CHECK(components_contiguous(g, p));
    }
  }
  const NodeGraph empty = graph_of(Connectivity{});
  for (RenumberMethod m : orderings) CHECK(renumber(empty, m).size() == 0);
}

TEST_CASE("RCM reaches the optimal bandwidth of a path and of a grid graph, however they are labelled") {
  Connectivity path;
  path.num_nodes = 57;
  for (int i = 0; i + 1 < path.num_nodes; ++i) path.add({i, i + 1});
  const NodeGraph shuffled_path = graph_of(fem::renumber::testing::shuffled(path, 7));
  CHECK(ordering_metrics(shuffled_path, Permutation::identity(57)).bandwidth > 10);
  CHECK(ordering_metrics(shuffled_path, reverse_cuthill_mckee(shuffled_path)).bandwidth == 1);

  // The p x p grid graph has bandwidth p at best; RCM's diagonal levels reach it. On a p x q
  // rectangle the levels stagger and RCM may give p + 1.
  for (int p : {9, 12}) {
    const NodeGraph g = graph_of(fem::renumber::testing::shuffled(fem::renumber::testing::grid(p, p, true), p));
    CHECK(ordering_metrics(g, Permutation::identity(p * p)).bandwidth > 3 * p);
    CHECK(ordering_metrics(g, reverse_cuthill_mckee(g)).bandwidth == p);
  }
  for (auto [p, q] : {std::pair{7, 19}, std::pair{5, 40}}) {
    CAPTURE(p);
    const NodeGraph g = graph_of(fem::renumber::testing::shuffled(fem::renumber::testing::grid(q, p, true), p + q));
    CHECK(ordering_metrics(g, reverse_cuthill_mckee(g)).bandwidth <= p + 1);
  }
}

TEST_CASE("RCM, GPS and Sloan shrink a shuffled quad grid's bandwidth and profile by large factors") {
  // 70 x 30 points of quads: the best bandwidth is 31 (the king's graph), the natural profile ~ n * 31.
  const NodeGraph g = graph_of(fem::renumber::testing::shuffled(fem::renumber::testing::grid(70, 30, false), 3));
  const OrderingMetrics shuffled = ordering_metrics(g, Permutation::identity(g.num_nodes()), 2);
  CHECK(shuffled.bandwidth > 2 * 1500);
  for (RenumberMethod m : orderings) {
    CAPTURE(method_name(m));
    const OrderingMetrics after = ordering_metrics(g, renumber(g, m), 2);
    CHECK(after.profile * 20 < shuffled.profile);
    CHECK(after.profile < 4 * 2100 * 2 * 32);
    CHECK(after.rms_wavefront < 2 * 40);
    if (m != RenumberMethod::Sloan) CHECK(after.bandwidth <= 2 * 2 * 32);  // Sloan trades bandwidth for profile
  }
}

TEST_CASE("auto keeps the best trial for its goal") {
  const NodeGraph g = graph_of(fem::renumber::testing::shuffled(fem::renumber::testing::grid(50, 20, false), 9));
  for (RenumberGoal goal : {RenumberGoal::Bandwidth, RenumberGoal::Front, RenumberGoal::Locality}) {
    const AutoChoice choice = renumber_auto(g, goal, 3, 10.0, 0);
    REQUIRE(choice.trials.size() == 4);  // none, rcm and both others fit in 10 s
    CHECK(choice.method != RenumberMethod::None);
    CHECK(is_valid_permutation(choice.permutation));
    const OrderingMetrics again = ordering_metrics(g, choice.permutation, 3);
    CHECK(again.profile == choice.metrics.profile);
    for (const MethodTrial& t : choice.trials) {
      if (goal == RenumberGoal::Bandwidth) CHECK(choice.metrics.bandwidth <= t.metrics.bandwidth);
      if (goal == RenumberGoal::Front) CHECK(choice.metrics.rms_wavefront <= t.metrics.rms_wavefront);
      if (goal == RenumberGoal::Locality) CHECK(choice.metrics.profile <= t.metrics.profile);
    }
  }
  // A budget already spent still runs RCM, and nothing slower.
  CHECK(renumber_auto(g, RenumberGoal::Bandwidth, 1, 0.0).trials.size() == 2);
}

TEST_CASE("auto for locality keeps a well-ordered mesh after the sweep alone, and renumbers a scrambled one") {
  using fem::renumber::testing::shuffled;
  using fem::renumber::testing::tetrahedra;
  // A tetrahedral box numbered plane by plane: rows already reach only about one plane back.
  const Connectivity box = tetrahedra(12, 10, 9);
  // No cache to hold a row window (cache_bytes 0): the sweep decides.
  const AutoChoice kept = renumber_auto(graph_of(box), RenumberGoal::Locality, 3, 10.0, 0);
  REQUIRE(kept.trials.size() == 1);  // the original numbering, measured, and no method run
  CHECK(kept.method == RenumberMethod::None);
  REQUIRE(kept.sweep.has_value());
  CHECK(kept.metrics.profile <= kLocalityKeptWithin * kept.sweep->profile);

  // The same tetrahedra numbered as a mesher may leave them: at random, or with the boundary
  // nodes first (interior rows then reach back to the start).
  std::vector<int> boundary_first;
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < 9; ++k)
      for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 12; ++i) {
          const bool on_boundary = i == 0 || i == 11 || j == 0 || j == 9 || k == 0 || k == 8;
          if (on_boundary == (pass == 0)) boundary_first.push_back(i + 12 * (j + 10 * k));
        }
  Connectivity surface_first = box;
  const Permutation relabel = Permutation::from_old_of_new(boundary_first);
  for (int& v : surface_first.nodes) v = relabel.new_of_old[v];
  for (const Connectivity& scrambled : {shuffled(box, 5), surface_first}) {
    const NodeGraph g = graph_of(scrambled);
    const AutoChoice renumbered = renumber_auto(g, RenumberGoal::Locality, 3, 10.0, 0);
    REQUIRE(renumbered.sweep.has_value());
    CHECK(renumbered.trials.front().metrics.profile > kLocalityKeptWithin * renumbered.sweep->profile);
    CHECK(renumbered.method != RenumberMethod::None);
    CHECK(renumbered.trials.size() == 4);
    CHECK(renumbered.metrics.profile * 2 < renumbered.trials.front().metrics.profile);
    CHECK(renumbered.metrics.profile <= renumbered.sweep->profile);

    // A cache that holds the scrambled numbering's row window: the products read the vector from
    // it in any order, so nothing is renumbered and not even the sweep is made.
    const std::size_t window = row_window_bytes(renumbered.trials.front().metrics);
    CHECK(window == (2 * renumbered.trials.front().metrics.bandwidth + 1) * sizeof(double));
    const AutoChoice cached = renumber_auto(g, RenumberGoal::Locality, 3, 10.0, window);
    CHECK(cached.method == RenumberMethod::None);
    CHECK(cached.trials.size() == 1);
    CHECK_FALSE(cached.sweep.has_value());
    CHECK(renumber_auto(g, RenumberGoal::Locality, 3, 10.0, window - 1).method != RenumberMethod::None);
  }

  // Direct solvers' goals always try the methods: their cost grows with the square of the measure.
  const AutoChoice banded = renumber_auto(graph_of(box), RenumberGoal::Bandwidth, 3, 10.0);
  CHECK(banded.trials.size() == 4);
  CHECK_FALSE(banded.sweep.has_value());
}

TEST_CASE("the breadth-first sweep numbers every component contiguously and shrinks a shuffled profile") {
  for (unsigned seed : {31u, 32u}) {
    const NodeGraph g = graph_of(fem::renumber::testing::random_mixed_mesh(seed, 60));
    const Permutation p = breadth_first_sweep(g);
    REQUIRE(p.size() == g.num_nodes());
    CHECK(is_valid_permutation(p));
    CHECK(components_contiguous(g, p));
  }
  const NodeGraph g = graph_of(fem::renumber::testing::shuffled(fem::renumber::testing::tetrahedra(16, 16, 16), 8));
  const OrderingMetrics shuffled = ordering_metrics(g, Permutation::identity(g.num_nodes()));
  const OrderingMetrics swept = ordering_metrics(g, breadth_first_sweep(g));
  CHECK(swept.profile * 5 < shuffled.profile);
  CHECK(swept.bandwidth * 5 < shuffled.bandwidth);
  CHECK(breadth_first_sweep(graph_of(Connectivity{})).size() == 0);
}

TEST_CASE("method names round-trip and bad names are reported") {
  for (RenumberMethod m : {RenumberMethod::None, RenumberMethod::Rcm, RenumberMethod::Gps, RenumberMethod::Sloan,
                           RenumberMethod::Auto})
    CHECK(parse_renumber_method(method_name(m)) == m);
  CHECK_THROWS_WITH_AS(parse_renumber_method("amd"), doctest::Contains("none, rcm, gps, sloan or auto"),
                       std::invalid_argument);
  CHECK_THROWS_AS(renumber(NodeGraph{}, RenumberMethod::Auto), std::invalid_argument);
  CHECK_THROWS_AS(sloan(NodeGraph{}, SloanWeights{-1, 1}), std::invalid_argument);
}

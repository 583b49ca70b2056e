#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "tests/renumber/connectivity_fixtures.hpp"

using namespace fem::renumber;
using fem::renumber::testing::Connectivity;

namespace {

// Reference: simulate the frontal process with a set; after each element, eliminate every
// front variable that no later element mentions.
FrontWidth reference_front(const Connectivity& c, const std::vector<int>& order, int d) {
  std::set<int> front;
  FrontWidth w;
  double sum_squares = 0;
  for (std::size_t step = 0; step < order.size(); ++step) {
    const int e = order[step];
    for (std::size_t m = c.offsets[e]; m < c.offsets[e + 1]; ++m) front.insert(c.nodes[m]);
    const std::int64_t size = static_cast<std::int64_t>(front.size()) * d;
    w.max = std::max(w.max, size);
    sum_squares += double(size) * double(size);
    for (auto it = front.begin(); it != front.end();) {
      bool needed_later = false;
      for (std::size_t later = step + 1; later < order.size() && !needed_later; ++later)
        for (std::size_t m = c.offsets[order[later]]; m < c.offsets[order[later] + 1]; ++m)
          needed_later = needed_later || c.nodes[m] == *it;
      it = needed_later ? std::next(it) : front.erase(it);
    }
  }
  w.rms = std::sqrt(sum_squares / order.size());
  return w;
}

bool is_permutation_of_elements(const std::vector<int>& order, int num_elements) {
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> all(num_elements);
  std::iota(all.begin(), all.end(), 0);
  return sorted == all;
}

}  // namespace

TEST_CASE("front width matches a simulated frontal process for random and renumbered element orders") {
  for (unsigned seed : {21u, 22u}) {
    const Connectivity c = fem::renumber::testing::random_mixed_mesh(seed, 25);
    const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
    std::vector<int> random_order(c.num_elements());
    std::iota(random_order.begin(), random_order.end(), 0);
    std::shuffle(random_order.begin(), random_order.end(), std::mt19937(seed));
    const std::vector<std::vector<int>> orders{
        random_order, element_order_by_nodes(c.offsets, c.nodes, renumber(g, RenumberMethod::Sloan)),
        element_order_sloan(c.offsets, c.nodes, c.num_nodes)};
    for (const auto& order : orders) {
      REQUIRE(is_permutation_of_elements(order, c.num_elements()));
      for (int d : {1, 3}) {
        const FrontWidth got = front_width(c.offsets, c.nodes, c.num_nodes, order, d);
        const FrontWidth want = reference_front(c, order, d);
        CHECK(got.max == want.max);
        CHECK(got.rms == doctest::Approx(want.rms).epsilon(1e-12));
      }
    }
  }
}

TEST_CASE("ordering the elements of a shuffled grid by renumbered nodes keeps the front narrow") {
  // 40 x 12 points of quads. Fronts sweep from a corner, so near the corners they are L-shaped:
  // up to 2 * 12 - 1 nodes, against hundreds for a shuffled element order.
  const Connectivity c = fem::renumber::testing::shuffled(fem::renumber::testing::grid(40, 12, false), 5);
  const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
  std::vector<int> random_order(c.num_elements());
  std::iota(random_order.begin(), random_order.end(), 0);
  std::shuffle(random_order.begin(), random_order.end(), std::mt19937(5));
  const FrontWidth shuffled = front_width(c.offsets, c.nodes, c.num_nodes, random_order, 2);
  for (RenumberMethod m : {RenumberMethod::Rcm, RenumberMethod::Gps, RenumberMethod::Sloan}) {
    CAPTURE(method_name(m));
    const FrontWidth w = front_width(c.offsets, c.nodes, c.num_nodes,
                                     element_order_by_nodes(c.offsets, c.nodes, renumber(g, m)), 2);
    CHECK(w.max <= 2 * 25);
    CHECK(w.max * 5 < shuffled.max);
  }
  const FrontWidth by_sloan = front_width(c.offsets, c.nodes, c.num_nodes,
                                          element_order_sloan(c.offsets, c.nodes, c.num_nodes), 2);
  CHECK(by_sloan.max <= 2 * 25);
}

TEST_CASE("front width rejects an element order that is not a permutation") {
  const Connectivity c = fem::renumber::testing::grid(3, 3, false);
  CHECK_THROWS_AS(front_width(c.offsets, c.nodes, c.num_nodes, std::vector<int>{0, 1, 1, 2}), std::invalid_argument);
  CHECK_THROWS_AS(front_width(c.offsets, c.nodes, c.num_nodes, std::vector<int>{0, 1}), std::invalid_argument);
}

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "fem/renumber/ordering_metrics.hpp"
#include "tests/renumber/connectivity_fixtures.hpp"

using namespace fem::renumber;
using fem::renumber::testing::Connectivity;

namespace {

// Reference: the explicit dense dof pattern (every dof pair of nodes sharing an element, plus
// the diagonal blocks), measured row by row straight from the definitions.
OrderingMetrics reference_metrics(const Connectivity& c, const Permutation& p, int d) {
  const int n = c.num_nodes * d;
  std::vector<char> a(static_cast<std::size_t>(n) * n, 0);
  auto mark_nodes = [&](int u, int v) {
    for (int x = 0; x < d; ++x)
      for (int y = 0; y < d; ++y) a[(p.new_of_old[u] * d + x) * static_cast<std::size_t>(n) + p.new_of_old[v] * d + y] = 1;
  };
  for (int u = 0; u < c.num_nodes; ++u) mark_nodes(u, u);
  for (int e = 0; e < c.num_elements(); ++e)
    for (std::size_t i = c.offsets[e]; i < c.offsets[e + 1]; ++i)
      for (std::size_t j = c.offsets[e]; j < c.offsets[e + 1]; ++j) mark_nodes(c.nodes[i], c.nodes[j]);

  OrderingMetrics m;
  double sum_squares = 0;
  for (int i = 0; i < n; ++i) {
    int first = i;
    for (int j = 0; j < n; ++j)
      if (a[static_cast<std::size_t>(i) * n + j]) {
        m.bandwidth = std::max<std::int64_t>(m.bandwidth, std::abs(i - j));
        first = std::min(first, j);
      }
    m.profile += i - first;
    std::int64_t wavefront = 0;
    for (int k = i; k < n; ++k)
      for (int l = 0; l <= i; ++l)
        if (a[static_cast<std::size_t>(k) * n + l]) {
          ++wavefront;
          break;
        }
    m.max_wavefront = std::max(m.max_wavefront, wavefront);
    sum_squares += double(wavefront) * double(wavefront);
  }
  m.rms_wavefront = std::sqrt(sum_squares / n);
  return m;
}

}  // namespace

TEST_CASE("bandwidth, profile and wavefront match a dense reference for 1 to 3 dofs per node") {
  for (unsigned seed : {11u, 12u, 13u}) {
    const Connectivity c = fem::renumber::testing::random_mixed_mesh(seed, 9);
    const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
    std::mt19937 rng(seed);
    std::vector<int> old_of_new(c.num_nodes);
    std::iota(old_of_new.begin(), old_of_new.end(), 0);
    std::shuffle(old_of_new.begin(), old_of_new.end(), rng);
    for (const Permutation& p : {Permutation::identity(c.num_nodes), Permutation::from_old_of_new(old_of_new)})
      for (int d = 1; d <= 3; ++d) {
        CAPTURE(seed);
        CAPTURE(d);
        const OrderingMetrics got = ordering_metrics(g, p, d);
        const OrderingMetrics want = reference_metrics(c, p, d);
        CHECK(got.bandwidth == want.bandwidth);
        CHECK(got.profile == want.profile);
        CHECK(got.max_wavefront == want.max_wavefront);
        CHECK(got.rms_wavefront == doctest::Approx(want.rms_wavefront).epsilon(1e-12));
        CHECK(want.bandwidth > d);  // the shuffled/random patterns are not trivially narrow
      }
  }
}

TEST_CASE("ordering metrics reject mismatched input") {
  const Connectivity c = fem::renumber::testing::grid(3, 3, false);
  const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
  CHECK_THROWS_AS(ordering_metrics(g, Permutation::identity(8)), std::invalid_argument);
  CHECK_THROWS_AS(ordering_metrics(g, Permutation::identity(9), 0), std::invalid_argument);
}

TEST_CASE("permutations are checked both ways") {
  CHECK_THROWS_WITH_AS(Permutation::from_old_of_new({0, 2, 2}), doctest::Contains("twice"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(Permutation::from_new_of_old({0, 3, 1}), doctest::Contains("outside"), std::invalid_argument);
  const Permutation p = Permutation::from_old_of_new({2, 0, 1});
  CHECK(p.new_of_old == std::vector<int>{1, 2, 0});
  CHECK(is_valid_permutation(p));
}

// The symbolic analysis against a brute-force symbolic Cholesky of the same pattern: the
// elimination tree, the column counts, and fronts that hold every entry of L.
#include <doctest/doctest.h>

#include <omp.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "solvers/multifrontal/elimination_tree.hpp"
#include "solvers/multifrontal/nested_dissection.hpp"
#include "solvers/multifrontal/node_blocks.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"
#include "sparse_test_matrices.hpp"

using namespace fem;
using namespace fem::multifrontal;

namespace {

// The pattern of L (lower, by column) of a symmetric pattern given as adjacency, in its own order.
std::vector<std::set<std::int32_t>> brute_force_factor_pattern(const BlockGraph& g) {
  std::vector<std::set<std::int32_t>> col(g.nodes);
  for (std::int32_t j = 0; j < g.nodes; ++j)
    for (auto i : g.neighbours(j))
      if (i > j) col[j].insert(i);
  for (std::int32_t j = 0; j < g.nodes; ++j)  // eliminating j fills the clique of its column
    for (auto i : col[j])
      for (auto k : col[j])
        if (k > i) col[i].insert(k);
  return col;
}

}  // namespace

TEST_CASE("elimination tree and column counts match a brute-force symbolic factorisation") {
  const CsrMatrix a = test::random_fe_like_matrix(5, 4, 3, 1, 7);
  const BlockGraph natural = block_graph(a, 1);
  // Postorder first: column_counts needs a postordered tree.
  const auto tree = elimination_tree(natural);
  const BlockGraph g = renumbered(natural, postorder(tree));
  const auto parent = elimination_tree(g);
  const auto pattern = brute_force_factor_pattern(g);
  const auto counts = column_counts(g, parent);
  for (std::int32_t j = 0; j < g.nodes; ++j) {
    CAPTURE(j);
    CHECK(parent[j] == (pattern[j].empty() ? -1 : *pattern[j].begin()));
    CHECK(counts[j] == static_cast<std::int64_t>(pattern[j].size()) + 1);
  }
}

TEST_CASE("the fronts hold every entry of L, in an elimination order that is a permutation") {
  const std::vector<std::int32_t> constrained = {0, 1, 2, 4, 31, 100};
  const CsrMatrix a = test::random_fe_like_matrix(6, 5, 4, 3, 11, constrained);
  const SymbolicFactor f = analyse(a, 1, 2);
  CHECK(f.block == 3);  // guessed from the matrix, constrained rows and all

  std::vector<std::int32_t> seen(f.old_of_new);
  std::sort(seen.begin(), seen.end());
  std::vector<std::int32_t> all(a.rows);
  std::iota(all.begin(), all.end(), 0);
  REQUIRE(seen == all);
  for (std::int64_t i = 0; i < a.rows; ++i) CHECK(f.old_of_new[f.new_of_old[i]] == i);

  // L's pattern in the elimination order, by brute force on the equations.
  BlockGraph equations = renumbered(block_graph(a, 1), f.new_of_old);
  const auto pattern = brute_force_factor_pattern(equations);
  std::int64_t true_entries = 0;
  for (std::int32_t s = 0; s < f.supernodes(); ++s) {
    const std::set<std::int32_t> rows(f.rows.begin() + f.row_offset[s], f.rows.begin() + f.row_offset[s + 1]);
    for (std::int32_t j = f.first[s]; j < f.first[s + 1]; ++j) {
      CHECK(rows.count(j) == 1);
      for (auto i : pattern[j]) CHECK(rows.count(i) == 1);
      true_entries += static_cast<std::int64_t>(pattern[j].size()) + 1;
    }
    if (f.parent[s] >= 0) CHECK(f.parent[s] > s);  // postorder
  }
  CHECK(f.factor_entries() >= true_entries);
  CHECK(f.factor_entries() <= 2 * true_entries);  // amalgamation adds some zeros, not many
  double flops = 0;
  for (std::int32_t j = 0; j < f.equations; ++j) flops += static_cast<double>(pattern[j].size() + 1) * (pattern[j].size() + 1);
  CHECK(f.flops >= flops);
  CHECK(f.estimate_bytes(8) > f.factor_bytes(8));

  // The schedule covers every supernode once.
  std::vector<int> covered(f.supernodes(), 0);
  for (std::size_t t = 0; t < f.schedule.subtree_root.size(); ++t)
    for (auto s = f.schedule.subtree_first[t]; s <= f.schedule.subtree_root[t]; ++s) ++covered[s];
  for (auto s : f.schedule.top) ++covered[s];
  CHECK(std::all_of(covered.begin(), covered.end(), [](int c) { return c == 1; }));
}

TEST_CASE("a block size from the caller is used as given; 1 means guess") {
  const CsrMatrix a = test::random_fe_like_matrix(4, 4, 2, 2, 3);
  CHECK(choose_block_size(a, 2) == 2);
  CHECK(choose_block_size(a, 1) == 2);
  CHECK(choose_block_size(test::random_fe_like_matrix(5, 4, 1, 1, 3), 1) == 1);
}

TEST_CASE("nested dissection split over threads orders a large graph about as well as one METIS call") {
  // A 32 x 32 x 32 grid of nodes with the 26 neighbours of a hex8 mesh: above the size that is
  // split into parallel parts.
  const int n = 32;
  BlockGraph g;
  g.nodes = n * n * n;
  const auto id = [&](int x, int y, int z) { return (z * n + y) * n + x; };
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int a = x + dx, b = y + dy, c = z + dz;
              if ((dx || dy || dz) && a >= 0 && b >= 0 && c >= 0 && a < n && b < n && c < n)
                g.neighbour.push_back(id(a, b, c));
            }
        g.offset.push_back(static_cast<std::int64_t>(g.neighbour.size()));
      }
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const SymbolicFactor one = analyse(g, 1);
  omp_set_num_threads(4);
  const std::vector<std::int32_t> order = nested_dissection(g);
  const SymbolicFactor split = analyse(g, 4);
  omp_set_num_threads(threads);
  std::vector<std::int32_t> sorted(order);
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int32_t> all(g.nodes);
  std::iota(all.begin(), all.end(), 0);
  CHECK(sorted == all);
  CHECK(split.flops < 1.1 * one.flops);
  CHECK(split.factor_entries() < 1.1 * one.factor_entries());
}

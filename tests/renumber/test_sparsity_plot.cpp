#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "fem/renumber/reverse_cuthill_mckee.hpp"
#include "fem/renumber/sparsity_plot.hpp"
#include "tests/renumber/connectivity_fixtures.hpp"

using namespace fem::renumber;

TEST_CASE("the sparsity plot writes a PNG, and refuses a permutation of the wrong size") {
  const auto c = fem::renumber::testing::shuffled(fem::renumber::testing::grid(30, 10, false), 4);
  const NodeGraph g = node_graph_from_elements(c.offsets, c.nodes, c.num_nodes);
  const auto png = std::filesystem::temp_directory_path() / "fem_test_sparsity.png";
  std::filesystem::remove(png);
  write_sparsity_png(g, reverse_cuthill_mckee(g), png.string(), "shuffled 30 x 10 grid", "rcm", 2);
  std::ifstream in(png, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  CHECK(std::string(magic + 1, 3) == "PNG");
  std::filesystem::remove(png);
  CHECK_THROWS_AS(write_sparsity_png(g, Permutation::identity(3), png.string(), "t", "rcm"), std::invalid_argument);
}

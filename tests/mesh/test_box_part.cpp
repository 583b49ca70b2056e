// Each rank's block of the built-in box against the whole box: every node owned by exactly one
// rank, every node's number the same whichever rank made it (found by position), each rank's
// numbers one contiguous range, the blocks' cells the whole box's once, a ghost cell layer only
// before each block along a cut axis, and every box facet in some rank's face groups.
#include <doctest/doctest.h>

#include <array>
#include <map>
#include <stdexcept>

#include "fem/mesh/box_part.hpp"

namespace {

using Position = std::array<double, 3>;

Position position(const fem::Mesh& mesh, std::size_t node) {
  return {mesh.coords[3 * node], mesh.coords[3 * node + 1], mesh.coords[3 * node + 2]};
}

std::size_t group_size(const fem::Mesh& mesh, const std::string& name) {
  const auto* group = mesh.find_group(name);
  return group ? group->elements.size() : 0;
}

long cells_of(const std::vector<int>& divisions) {
  long n = 1;
  for (int d : divisions) n *= d;
  return n;
}

void check_parts(const fem::BoxSpec& spec, int ranks) {
  CAPTURE(ranks);
  const fem::Mesh whole = fem::make_box_mesh(spec);
  std::map<Position, int> whole_node;  // position -> how many ranks own a node there
  for (std::size_t n = 0; n < whole.num_nodes(); ++n) whole_node[position(whole, n)] = 0;
  std::map<Position, std::int64_t> number_at;  // position -> the number the first rank making it gave
  REQUIRE(whole_node.size() == whole.num_nodes());
  std::vector<int> numbered(whole.num_nodes(), 0);
  std::map<std::string, std::size_t> facets;
  std::size_t own_cells = 0;
  std::int64_t next_first = 0;
  for (int rank = 0; rank < ranks; ++rank) {
    const fem::BoxPart part = fem::make_box_part(spec, rank, ranks);
    CHECK(part.box_nodes == static_cast<std::int64_t>(whole.num_nodes()));
    CHECK(part.box_cells == static_cast<std::int64_t>(whole.cells.size()));
    CHECK(part.first_node == next_first);
    next_first += part.owned_nodes;
    std::int64_t owned = 0;
    for (std::size_t n = 0; n < part.mesh.num_nodes(); ++n) {
      const auto at = whole_node.find(position(part.mesh, n));
      REQUIRE(at != whole_node.end());
      const std::int64_t g = part.global_node[n];
      REQUIRE(g >= 0);
      REQUIRE(g < part.box_nodes);
      CHECK(number_at.emplace(at->first, g).first->second == g);
      if (!part.owned[n]) continue;
      ++owned;
      ++at->second;
      ++numbered[static_cast<std::size_t>(g)];
      CHECK(g >= part.first_node);
      CHECK(g < part.first_node + part.owned_nodes);
    }
    CHECK(owned == part.owned_nodes);
    own_cells += part.own_cells.size();
    CHECK(part.grid[0] * part.grid[1] * part.grid[2] == ranks);
    // The block with its ghost layer is a box of cells one layer longer along each axis it does
    // not start at 0 on.
    const std::size_t per_cell = whole.cells.size() / static_cast<std::size_t>(cells_of(spec.divisions));
    std::array<long, 3> at{rank % part.grid[0], rank / part.grid[0] % part.grid[1], rank / part.grid[0] / part.grid[1]};
    std::size_t own = per_cell, made = per_cell;
    for (std::size_t k = 0; k < spec.divisions.size(); ++k) {
      const long first = spec.divisions[k] * at[k] / part.grid[k], end = spec.divisions[k] * (at[k] + 1) / part.grid[k];
      own *= static_cast<std::size_t>(end - first);
      made *= static_cast<std::size_t>(end - first + (first > 0 ? 1 : 0));
    }
    CHECK(part.own_cells.size() == own);
    CHECK(part.mesh.cells.size() == made);
    for (const char* name : {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"}) facets[name] += group_size(part.mesh, name);
  }
  CHECK(own_cells == whole.cells.size());
  CHECK(next_first == static_cast<std::int64_t>(whole.num_nodes()));
  for (const auto& [x, owners] : whole_node) CHECK(owners == 1);
  for (int count : numbered) CHECK(count == 1);
  for (const auto& [name, count] : facets) {
    CAPTURE(name);
    CHECK(count >= group_size(whole, name));  // each rank holds every box facet of its cells, ghosts included
  }
}

}  // namespace

TEST_CASE("box blocks number the whole box's nodes once, each rank a contiguous range") {
  for (int ranks : {1, 2, 3, 4, 6, 8, 12}) {
    check_parts({{2, 1, 1}, {8, 4, 4}, fem::ElementShape::Hexahedron, 1}, ranks);
    check_parts({{1, 1, 2}, {2, 3, 5}, fem::ElementShape::Hexahedron, 2, true}, ranks);
    check_parts({{1, 1, 2}, {2, 3, 5}, fem::ElementShape::Hexahedron, 2, false}, ranks);
    check_parts({{1, 2, 1}, {3, 4, 2}, fem::ElementShape::Tetrahedron, 2}, ranks);
    check_parts({{4, 1}, {16, 4}, fem::ElementShape::Quadrilateral, 2, true}, ranks);
    check_parts({{1, 3}, {3, 7}, fem::ElementShape::Triangle, 1}, ranks);
  }
}

TEST_CASE("the block grid cuts the fewest cell faces, and a rank count no grid fits is refused by name") {
  const fem::BoxSpec spec{{1, 1, 1}, {3, 9, 4}, fem::ElementShape::Hexahedron, 1};
  CHECK(fem::make_box_part(spec, 0, 2).grid == std::array<int, 3>{1, 2, 1});
  CHECK(fem::make_box_part(spec, 0, 4).grid == std::array<int, 3>{1, 4, 1});  // 36 faces cut; 1 x 2 x 2 would cut 39
  CHECK(fem::make_box_part(spec, 0, 9).grid == std::array<int, 3>{1, 3, 3});  // 78 faces cut; 1 x 9 x 1 would cut 96
  CHECK(fem::make_box_part({{1, 1, 1}, {16, 16, 16}, fem::ElementShape::Hexahedron, 1}, 0, 16).grid ==
        std::array<int, 3>{2, 2, 4});
  try {
    fem::make_box_part(spec, 0, 11);
    FAIL("11 ranks for at most 9 layers");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).find("3 x 9 x 4 cells") != std::string::npos);
  }
}

// The arrays a device's assembly and recovery read of a problem (fem/assembly/device_inputs),
// against serial references.
#include <doctest/doctest.h>

#include <map>
#include <random>
#include <vector>

#include "fem/assembly/device_inputs.hpp"
#include "fem/elements/element_type.hpp"

namespace fem {

TEST_CASE("the cells grouped by type: each type's cells in mesh order with their nodes and materials, on all threads") {
  // Three types interleaved at random over enough cells for every thread to list some of each.
  std::mt19937 rng(11);
  Mesh mesh;
  mesh.dimension = 3;
  const ElementType types[] = {ElementType::Tet4, ElementType::Hex8, ElementType::Tet10};
  Problem problem;
  problem.mesh = &mesh;
  for (int e = 0; e < 50000; ++e) {
    const ElementType type = types[rng() % 3];
    std::vector<int> nodes(static_cast<std::size_t>(element_info(type).num_nodes));
    for (int& n : nodes) n = static_cast<int>(rng() % 100000);
    mesh.cells.add(type, nodes);
    problem.cell_material.push_back(static_cast<int>(rng() % 4));
  }
  std::map<ElementType, std::vector<std::size_t>> expected;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) expected[mesh.cells.type[e]].push_back(e);

  const auto by_type = cells_by_type(problem);
  REQUIRE(by_type.size() == 3);
  for (const auto& [type, cells] : by_type) {
    CAPTURE(element_info(type).name);
    const auto& listed = expected.at(type);
    const auto per_cell = static_cast<std::size_t>(element_info(type).num_nodes);
    REQUIRE(cells.cell.size() == listed.size());
    REQUIRE(cells.node.size() == listed.size() * per_cell);
    REQUIRE(cells.material.size() == listed.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < listed.size(); ++i) {
      wrong += static_cast<std::size_t>(cells.cell[i]) != listed[i];
      wrong += cells.material[i] != problem.cell_material[listed[i]];
      const auto nodes = mesh.cells.nodes_of(listed[i]);
      for (std::size_t a = 0; a < per_cell; ++a) wrong += cells.node[i * per_cell + a] != nodes[a];
    }
    CHECK(wrong == 0);
  }
}

}  // namespace fem

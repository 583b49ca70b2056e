// The high-order node orderings, node by node, as drawn in the Gmsh reference manual
// ("Node ordering", gmsh.info/doc/texinfo/gmsh.html), so a .msh file maps straight in.
#include <doctest/doctest.h>

#include <vector>

#include "fem/elements/reference_element.hpp"

using namespace fem;

namespace {

std::vector<double> node(ElementType type, int i) {
  const int dim = element_info(type).dimension;
  const auto ref = reference_nodes(type);
  return {ref.begin() + i * dim, ref.begin() + (i + 1) * dim};
}

std::vector<double> midpoint(ElementType type, int a, int b) {
  auto p = node(type, a);
  const auto q = node(type, b);
  for (std::size_t d = 0; d < p.size(); ++d) p[d] = 0.5 * (p[d] + q[d]);
  return p;
}

}  // namespace

TEST_CASE("Gmsh order: line3, tri6, quad8, quad9") {
  CHECK(node(ElementType::Line3, 0) == std::vector<double>{-1});
  CHECK(node(ElementType::Line3, 1) == std::vector<double>{1});
  CHECK(node(ElementType::Line3, 2) == std::vector<double>{0});

  // Triangle6: 3 on edge 0-1, 4 on edge 1-2, 5 on edge 2-0.
  CHECK(node(ElementType::Tri6, 2) == std::vector<double>{0, 1});
  CHECK(node(ElementType::Tri6, 3) == std::vector<double>{0.5, 0});
  CHECK(node(ElementType::Tri6, 4) == std::vector<double>{0.5, 0.5});
  CHECK(node(ElementType::Tri6, 5) == std::vector<double>{0, 0.5});

  // Quadrangle8/9: vertices counter-clockwise from (-1,-1); 4..7 on edges 01 12 23 30; 8 centre.
  for (ElementType t : {ElementType::Quad8, ElementType::Quad9}) {
    CHECK(node(t, 2) == std::vector<double>{1, 1});
    CHECK(node(t, 3) == std::vector<double>{-1, 1});
    CHECK(node(t, 4) == std::vector<double>{0, -1});
    CHECK(node(t, 5) == std::vector<double>{1, 0});
    CHECK(node(t, 6) == std::vector<double>{0, 1});
    CHECK(node(t, 7) == std::vector<double>{-1, 0});
  }
  CHECK(node(ElementType::Quad9, 8) == std::vector<double>{0, 0});
}

TEST_CASE("Gmsh order: tet10") {
  // Tetrahedron10: 4 on 0-1, 5 on 1-2, 6 on 2-0, 7 on 3-0, 8 on 3-2, 9 on 3-1.
  const ElementType t = ElementType::Tet10;
  CHECK(node(t, 3) == std::vector<double>{0, 0, 1});
  CHECK(node(t, 4) == std::vector<double>{0.5, 0, 0});
  CHECK(node(t, 5) == std::vector<double>{0.5, 0.5, 0});
  CHECK(node(t, 6) == std::vector<double>{0, 0.5, 0});
  CHECK(node(t, 7) == std::vector<double>{0, 0, 0.5});
  CHECK(node(t, 8) == std::vector<double>{0, 0.5, 0.5});
  CHECK(node(t, 9) == std::vector<double>{0.5, 0, 0.5});
}

TEST_CASE("Gmsh order: hex20 and hex27") {
  for (ElementType t : {ElementType::Hex8, ElementType::Hex20, ElementType::Hex27}) {
    CHECK(node(t, 0) == std::vector<double>{-1, -1, -1});
    CHECK(node(t, 2) == std::vector<double>{1, 1, -1});
    CHECK(node(t, 4) == std::vector<double>{-1, -1, 1});
    CHECK(node(t, 6) == std::vector<double>{1, 1, 1});
  }
  // Hexahedron20/27 edge nodes 8..19 on edges 01 03 04 12 15 23 26 37 45 47 56 67.
  const int edges[12][2] = {{0, 1}, {0, 3}, {0, 4}, {1, 2}, {1, 5}, {2, 3},
                            {2, 6}, {3, 7}, {4, 5}, {4, 7}, {5, 6}, {6, 7}};
  for (ElementType t : {ElementType::Hex20, ElementType::Hex27})
    for (int e = 0; e < 12; ++e) {
      CAPTURE(e);
      CHECK(node(t, 8 + e) == midpoint(t, edges[e][0], edges[e][1]));
    }
  // Hexahedron27 face nodes 20..25 on faces 0321 0154 0473 1265 2376 4567, 26 the centre.
  const ElementType t = ElementType::Hex27;
  CHECK(node(t, 20) == std::vector<double>{0, 0, -1});
  CHECK(node(t, 21) == std::vector<double>{0, -1, 0});
  CHECK(node(t, 22) == std::vector<double>{-1, 0, 0});
  CHECK(node(t, 23) == std::vector<double>{1, 0, 0});
  CHECK(node(t, 24) == std::vector<double>{0, 1, 0});
  CHECK(node(t, 25) == std::vector<double>{0, 0, 1});
  CHECK(node(t, 26) == std::vector<double>{0, 0, 0});
}

#include "fem/elements/element_type.hpp"

#include <array>
#include <stdexcept>
#include <string>

namespace fem {
namespace {

using S = ElementShape;
using T = ElementType;

constexpr std::array<ElementTypeInfo, 13> kInfo = {{
    {T::Point1, "point1", S::Point, 0, 1, 0, 1, 15},
    {T::Line2, "line2", S::Line, 1, 2, 1, 2, 1},
    {T::Line3, "line3", S::Line, 1, 3, 2, 2, 8},
    {T::Tri3, "tri3", S::Triangle, 2, 3, 1, 3, 2},
    {T::Tri6, "tri6", S::Triangle, 2, 6, 2, 3, 9},
    {T::Quad4, "quad4", S::Quadrilateral, 2, 4, 1, 4, 3},
    {T::Quad8, "quad8", S::Quadrilateral, 2, 8, 2, 4, 16},
    {T::Quad9, "quad9", S::Quadrilateral, 2, 9, 2, 4, 10},
    {T::Tet4, "tet4", S::Tetrahedron, 3, 4, 1, 4, 4},
    {T::Tet10, "tet10", S::Tetrahedron, 3, 10, 2, 4, 11},
    {T::Hex8, "hex8", S::Hexahedron, 3, 8, 1, 8, 5},
    {T::Hex20, "hex20", S::Hexahedron, 3, 20, 2, 8, 17},
    {T::Hex27, "hex27", S::Hexahedron, 3, 27, 2, 8, 12},
}};

}  // namespace

const ElementTypeInfo& element_info(ElementType type) { return kInfo.at(static_cast<int>(type)); }

bool element_type_from_gmsh(int gmsh_type, ElementType& type) {
  for (const auto& info : kInfo) {
    if (info.gmsh_type == gmsh_type) {
      type = info.type;
      return true;
    }
  }
  return false;
}

ElementType element_type_for(ElementShape shape, int order, bool serendipity) {
  if (order != 1 && order != 2) throw std::invalid_argument("element order must be 1 or 2, got " + std::to_string(order));
  const bool quadratic = order == 2;
  switch (shape) {
    case S::Point: return T::Point1;
    case S::Line: return quadratic ? T::Line3 : T::Line2;
    case S::Triangle: return quadratic ? T::Tri6 : T::Tri3;
    case S::Quadrilateral: return quadratic ? (serendipity ? T::Quad8 : T::Quad9) : T::Quad4;
    case S::Tetrahedron: return quadratic ? T::Tet10 : T::Tet4;
    case S::Hexahedron: return quadratic ? (serendipity ? T::Hex20 : T::Hex27) : T::Hex8;
  }
  throw std::invalid_argument("unknown element shape");
}

ElementType facet_type_of(ElementType type) {
  switch (type) {
    case T::Line2: case T::Line3: return T::Point1;
    case T::Tri3: case T::Quad4: return T::Line2;
    case T::Tri6: case T::Quad8: case T::Quad9: return T::Line3;
    case T::Tet4: return T::Tri3;
    case T::Tet10: return T::Tri6;
    case T::Hex8: return T::Quad4;
    case T::Hex20: return T::Quad8;
    case T::Hex27: return T::Quad9;
    case T::Point1: break;
  }
  throw std::invalid_argument("a point has no facets");
}

}  // namespace fem

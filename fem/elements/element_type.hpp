#pragma once
// The element types fem knows, with Gmsh's numbering and node ordering as the convention
// throughout (a .msh file maps straight in; VTK output permutes where VTK differs).
#include <cstddef>
#include <string_view>

namespace fem {

enum class ElementType : int {
  Point1,
  Line2, Line3,
  Tri3, Tri6,
  Quad4, Quad8, Quad9,
  Tet4, Tet10,
  Hex8, Hex20, Hex27,
};

// How many element types there are (their values run from 0): the size of a table by type.
inline constexpr std::size_t kElementTypeCount = static_cast<std::size_t>(ElementType::Hex27) + 1;

enum class ElementShape { Point, Line, Triangle, Quadrilateral, Tetrahedron, Hexahedron };

struct ElementTypeInfo {
  ElementType type;
  std::string_view name;   // "tri6", as written in messages and case files
  ElementShape shape;
  int dimension;           // 0..3
  int num_nodes;
  int order;               // polynomial order of the geometry/field interpolation
  int num_vertices;        // corner nodes; they come first in the node list
  int gmsh_type;           // Gmsh element type number (MSH format)
};

const ElementTypeInfo& element_info(ElementType type);

// The element type for a Gmsh element number; returns false when fem does not support it.
bool element_type_from_gmsh(int gmsh_type, ElementType& type);

// The element type of the given shape and order; serendipity picks quad8/hex20 over quad9/hex27.
ElementType element_type_for(ElementShape shape, int order, bool serendipity = false);

// The boundary (facet) element type of a shape/order: tri6 -> line3, hex27 -> quad9, tet10 -> tri6.
ElementType facet_type_of(ElementType type);

}  // namespace fem

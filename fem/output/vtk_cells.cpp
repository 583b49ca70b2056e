#include "fem/output/vtk_cells.hpp"

#include <array>
#include <stdexcept>

namespace fem {
namespace {

// VTK cell type numbers (vtkCellType.h), spelled out so this map needs no VTK headers.
enum VtkType {
  kVertex = 1, kLine = 3, kTriangle = 5, kQuad = 9, kTetra = 10, kHexahedron = 12,
  kQuadraticEdge = 21, kQuadraticTriangle = 22, kQuadraticQuad = 23, kQuadraticTetra = 24,
  kQuadraticHexahedron = 25, kBiquadraticQuad = 28, kTriquadraticHexahedron = 29,
};

constexpr std::array<int, 27> kIdentity = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                           14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
// Gmsh numbers the last two tet10 edges (2,3) then (1,3); VTK the other way round.
constexpr std::array<int, 10> kTet10 = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8};
// Gmsh lists hexahedron edges by vertex pairs in its own order; VTK bottom, top, then verticals.
constexpr std::array<int, 20> kHex20 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15};
constexpr std::array<int, 27> kHex27 = {0,  1,  2,  3,  4,  5,  6,  7,  8,  11, 13, 9,  16, 18,
                                        19, 17, 10, 12, 14, 15, 22, 23, 21, 24, 20, 25, 26};

}  // namespace

int vtk_cell_type(ElementType type) {
  using T = ElementType;
  switch (type) {
    case T::Point1: return kVertex;
    case T::Line2: return kLine;
    case T::Line3: return kQuadraticEdge;
    case T::Tri3: return kTriangle;
    case T::Tri6: return kQuadraticTriangle;
    case T::Quad4: return kQuad;
    case T::Quad8: return kQuadraticQuad;
    case T::Quad9: return kBiquadraticQuad;
    case T::Tet4: return kTetra;
    case T::Tet10: return kQuadraticTetra;
    case T::Hex8: return kHexahedron;
    case T::Hex20: return kQuadraticHexahedron;
    case T::Hex27: return kTriquadraticHexahedron;
  }
  throw std::invalid_argument("no VTK cell type for this element");
}

std::span<const int> vtk_from_gmsh(ElementType type) {
  const int n = element_info(type).num_nodes;
  switch (type) {
    case ElementType::Tet10: return kTet10;
    case ElementType::Hex20: return kHex20;
    case ElementType::Hex27: return kHex27;
    default: return std::span<const int>(kIdentity.data(), n);
  }
}

}  // namespace fem

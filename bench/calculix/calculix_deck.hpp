#pragma once
// A CalculiX input deck (.inp) of a modal case: the mesh as *NODE and *ELEMENT (C3D4, C3D10,
// C3D8, C3D20, in CalculiX's node order), one *MATERIAL (*ELASTIC, *DENSITY) and *SOLID SECTION
// per material, the case's supports as *BOUNDARY, and one *STEP *FREQUENCY (SPOOLES) for the
// lowest modes. What CalculiX would compute differently, or not at all, is refused.
#include <array>
#include <iosfwd>
#include <span>
#include <stdexcept>
#include <string>

#include "fem/case/case.hpp"
#include "fem/physics/problem.hpp"

namespace fem::bench {

// A case or mesh the deck cannot express; the message names the file and what is missing.
class DeckError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// CalculiX's name of the element type ("C3D20"); throws DeckError for a type it has no full-
// integration solid for (2D elements, hex27).
const char* calculix_element_name(ElementType type);

// For CalculiX's local node k, the local node of fem's (Gmsh's) order that sits there. Gmsh and
// CalculiX agree on corners; hex20 numbers its edges differently and tet10 swaps its last two.
std::span<const int> calculix_node_order(ElementType type);

// Checks that `c` is a modal case CalculiX's *FREQUENCY solves as fem does: 3D elasticity,
// consistent mass, no shift and at least one support (CalculiX factorises K itself, so a free
// body is singular for it). Throws DeckError naming the case file and line.
void require_calculix_modal_case(const Case& c);

// Writes the deck of `problem` (built from `c`) asking for `modes` frequencies.
void write_calculix_deck(std::ostream& out, const Case& c, const Problem& problem, int modes);

}  // namespace fem::bench

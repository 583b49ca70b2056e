#include "bench/calculix/calculix_deck.hpp"

#include <cstdio>
#include <map>
#include <ostream>
#include <utility>
#include <vector>

namespace fem::bench {
namespace {

std::string at_line(const Case& c, int line) {
  return c.file.string() + (line > 0 ? ":" + std::to_string(line) : "") + ": ";
}

// Data lines of CalculiX hold at most 16 entries; longer lists go on in the next line.
void write_list(std::ostream& out, const std::vector<long long>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    out << values[i];
    const bool last = i + 1 == values.size();
    out << (last ? "\n" : (i % 16 == 15 ? ",\n" : ", "));
  }
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

}  // namespace

const char* calculix_element_name(ElementType type) {
  switch (type) {
    case ElementType::Tet4: return "C3D4";
    case ElementType::Tet10: return "C3D10";
    case ElementType::Hex8: return "C3D8";
    case ElementType::Hex20: return "C3D20";
    default:
      throw DeckError(std::string("a ") + std::string(element_info(type).name) +
                      " element has no CalculiX solid element to write it as (tet4, tet10, hex8 and hex20 have)");
  }
}

std::span<const int> calculix_node_order(ElementType type) {
  static const std::vector<int> identity = {0, 1, 2, 3, 4, 5, 6, 7};
  // CalculiX's hex20 edges: the bottom face's four in turn, the top face's, then the four
  // vertical ones; Gmsh lists its edges by their first corner.
  static const std::vector<int> hex20 = {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15};
  // CalculiX's tet10 edges 1-4, 2-4, 3-4 (1-based); Gmsh's last two are 3-4 then 2-4.
  static const std::vector<int> tet10 = {0, 1, 2, 3, 4, 5, 6, 7, 9, 8};
  switch (type) {
    case ElementType::Tet4: return {identity.data(), 4};
    case ElementType::Hex8: return {identity.data(), 8};
    case ElementType::Hex20: return hex20;
    case ElementType::Tet10: return tet10;
    default: calculix_element_name(type);  // throws, naming the type
  }
  return {};
}

void require_calculix_modal_case(const Case& c) {
  if (c.analysis.type != AnalysisType::Modal)
    throw DeckError(at_line(c, c.analysis.line) + "not a modal case (analysis: {type: modal, modes: N})");
  if (c.physics.type != PhysicsType::Elasticity || c.physics.model != ElasticModel::Solid3D)
    throw DeckError(at_line(c, 0) + "CalculiX's deck is written for 3D elasticity (physics: {type: elasticity, model: 3d})");
  if (c.analysis.mass != MassLumping::Consistent)
    throw DeckError(at_line(c, c.analysis.line) +
                    "CalculiX's *FREQUENCY uses the consistent mass; remove analysis.mass: lumped to compare with it");
  if (c.analysis.shift_hz)
    throw DeckError(at_line(c, c.analysis.line) +
                    "analysis.shift is not carried over: CalculiX's *FREQUENCY looks for the lowest modes");
}

void write_calculix_deck(std::ostream& out, const Case& c, const Problem& problem, int modes) {
  require_calculix_modal_case(c);
  const Mesh& mesh = *problem.mesh;
  if (problem.dirichlet.empty())
    throw DeckError(at_line(c, 0) +
                    "the body is held by nothing: CalculiX factorises K itself, which is singular for a free body; "
                    "add a support (boundary: [{group: ..., fix: all}])");
  out << "** " << c.title << "\n** written by fem-bench-calculix from " << c.file.string() << " (" << mesh.source
      << ")\n*NODE, NSET=NALL\n";
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    out << n + 1 << ", " << number(mesh.coords[3 * n]) << ", " << number(mesh.coords[3 * n + 1]) << ", "
        << number(mesh.coords[3 * n + 2]) << "\n";

  // One element set per material and type: each *ELEMENT block has one type, each set one section.
  std::map<std::pair<int, ElementType>, std::vector<std::size_t>> sets;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    calculix_element_name(mesh.cells.type[e]);  // refuses a type before anything else is written
    sets[{problem.cell_material[e], mesh.cells.type[e]}].push_back(e);
  }
  for (const auto& [key, cells] : sets) {
    const auto& [material, type] = key;
    const std::span<const int> order = calculix_node_order(type);
    out << "*ELEMENT, TYPE=" << calculix_element_name(type) << ", ELSET=E" << material + 1 << "_"
        << calculix_element_name(type) << "\n";
    for (const std::size_t e : cells) {
      const auto nodes = mesh.cells.nodes_of(e);
      std::vector<long long> line{static_cast<long long>(e + 1)};
      for (const int k : order) line.push_back(nodes[k] + 1LL);
      write_list(out, line);
    }
  }
  for (std::size_t m = 0; m < problem.materials.size(); ++m) {
    const IsotropicMaterial& material = problem.materials[m];
    out << "** material '" << problem.material_names[m] << "'\n*MATERIAL, NAME=M" << m + 1 << "\n*ELASTIC\n"
        << number(material.E) << ", " << number(material.nu) << "\n*DENSITY\n" << number(material.density) << "\n";
  }
  for (const auto& [key, cells] : sets)
    out << "*SOLID SECTION, ELSET=E" << key.first + 1 << "_" << calculix_element_name(key.second) << ", MATERIAL=M"
        << key.first + 1 << "\n";

  // A modal run holds every prescribed component at zero, as fem's does.
  for (std::size_t i = 0; i < problem.dirichlet.size(); ++i) {
    const DirichletCondition& condition = problem.dirichlet[i];
    if (condition.nodes.empty()) continue;
    out << "** support '" << condition.group << "'\n*NSET, NSET=S" << i + 1 << "\n";
    std::vector<long long> nodes(condition.nodes.begin(), condition.nodes.end());
    for (auto& n : nodes) ++n;
    write_list(out, nodes);
  }
  out << "*BOUNDARY\n";
  for (std::size_t i = 0; i < problem.dirichlet.size(); ++i)
    for (int k = 0; k < 3; ++k)
      if (problem.dirichlet[i].component[k] && !problem.dirichlet[i].nodes.empty()) out << "S" << i + 1 << ", " << k + 1 << ", " << k + 1 << "\n";
  out << "*STEP\n*FREQUENCY, SOLVER=SPOOLES\n" << modes << "\n*END STEP\n";
}

}  // namespace fem::bench

// fem-bench-calculix: the CalculiX deck (node orders, sets, supports, the *FREQUENCY step), what
// it refuses, the .dat eigenvalue reader, and, where Debian's ccx is installed, the lowest
// frequencies of ccx and fem on the same mesh: equal to 1e-6 for hex8 and hex20, whose mass and
// stiffness both codes integrate exactly on a box; for tet10 CalculiX integrates the mass at 4
// points (exact to degree 2, not the 4 of N_i N_j), a difference that falls as h^4.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "bench/calculix/calculix_benchmark.hpp"
#include "bench/calculix/calculix_deck.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/output/external_command.hpp"
#include "fem/pipeline/make_mesh.hpp"
#include "tests/app/app_test_support.hpp"

using namespace fem;
using namespace fem::bench;
using fem::test::TempDir;

namespace {

// A block clamped at xmin; `mesh` holds the mesh section's element lines.
std::string clamped_block(const std::string& mesh, const std::string& extra = "") {
  return R"(title: clamped block
mesh:
  box: {size: [1, 0.25, 0.2], divisions: [8, 2, 2]}
)" + mesh + R"(
physics: {type: elasticity, model: 3d}
materials:
  - {E: 200e9, nu: 0.3, density: 7800}
boundary:
  - {group: xmin, fix: all}
  - {group: xmax, fix: [y]}
analysis: {type: modal, modes: 6)" + extra + R"(}
)";
}

std::string deck_of(const Case& c, int modes = 6) {
  const Mesh mesh = make_mesh(c.mesh);
  const Problem problem = build_problem(c, mesh);
  std::ostringstream deck;
  write_calculix_deck(deck, c, problem, modes);
  return deck.str();
}

// The data lines after the keyword line that starts with `keyword`, up to the next keyword.
std::vector<std::string> block(const std::string& deck, const std::string& keyword) {
  std::istringstream in(deck);
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("*", 0) == 0) {
      if (inside) break;
      inside = line.rfind(keyword, 0) == 0;
      continue;
    }
    if (inside) lines.push_back(line);
  }
  return lines;
}

std::string error_of(const std::function<void()>& work) {
  try {
    work();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("CalculiX's node order puts each midside node at the middle of its CalculiX edge") {
  // CalculiX's edges, 0-based, from its manual's element pictures.
  const std::vector<std::array<int, 2>> hex20_edges = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                                                       {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  const std::vector<std::array<int, 2>> tet10_edges = {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}};
  for (const auto& [type, edges] : {std::pair{ElementType::Hex20, hex20_edges}, std::pair{ElementType::Tet10, tet10_edges}}) {
    const auto order = calculix_node_order(type);
    const auto& info = element_info(type);
    REQUIRE(static_cast<int>(order.size()) == info.num_nodes);
    std::vector<int> sorted(order.begin(), order.end());
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < info.num_nodes; ++k) CHECK(sorted[k] == k);
    const auto xi = reference_nodes(type);
    const auto at = [&](int fem_node, int j) { return xi[3 * fem_node + j]; };
    for (int k = 0; k < info.num_vertices; ++k) CHECK(order[k] == k);
    for (std::size_t e = 0; e < edges.size(); ++e)
      for (int j = 0; j < 3; ++j) {
        CAPTURE(info.name);
        CAPTURE(e);
        CHECK(at(order[info.num_vertices + e], j) ==
              doctest::Approx(0.5 * (at(order[edges[e][0]], j) + at(order[edges[e][1]], j))));
      }
  }
  CHECK(std::string(calculix_element_name(ElementType::Hex20)) == "C3D20");
  CHECK(std::string(calculix_element_name(ElementType::Tet4)) == "C3D4");
}

TEST_CASE("the deck of a hex8 block holds its nodes, elements, material, supports and the frequency step") {
  TempDir dir;
  const Case c = load_case(dir.write("block.yaml", clamped_block("  element: hex")));
  const std::string deck = deck_of(c, 7);
  const auto nodes = block(deck, "*NODE");
  REQUIRE(nodes.size() == 9 * 3 * 3);
  CHECK(nodes[1] == "2, 0.125, 0, 0");
  const auto elements = block(deck, "*ELEMENT, TYPE=C3D8, ELSET=E1_C3D8");
  REQUIRE(elements.size() == 8 * 2 * 2);
  CHECK(std::count(elements[0].begin(), elements[0].end(), ',') == 8);
  CHECK(block(deck, "*ELASTIC") == std::vector<std::string>{"200000000000, 0.29999999999999999"});
  CHECK(block(deck, "*DENSITY") == std::vector<std::string>{"7800"});
  CHECK(block(deck, "*BOUNDARY") == std::vector<std::string>{"S1, 1, 1", "S1, 2, 2", "S1, 3, 3", "S2, 2, 2"});
  const auto fixed = block(deck, "*NSET, NSET=S1");
  CHECK(fixed.size() == 1);  // 9 nodes on xmin: one line
  CHECK(std::count(fixed[0].begin(), fixed[0].end(), ',') == 8);
  CHECK(block(deck, "*FREQUENCY, SOLVER=SPOOLES") == std::vector<std::string>{"7"});
  CHECK(deck.find("*SOLID SECTION, ELSET=E1_C3D8, MATERIAL=M1") != std::string::npos);
}

TEST_CASE("a hex20 element goes on over two data lines of at most 16 entries") {
  TempDir dir;
  const Case c = load_case(dir.write("block.yaml", clamped_block("  element: hex\n  order: 2\n  serendipity: true")));
  const auto elements = block(deck_of(c), "*ELEMENT, TYPE=C3D20");
  REQUIRE(elements.size() == 2 * 8 * 2 * 2);
  CHECK(std::count(elements[0].begin(), elements[0].end(), ',') == 16);  // 16 entries and the comma that goes on
  CHECK(std::count(elements[1].begin(), elements[1].end(), ',') == 4);
}

TEST_CASE("what CalculiX would compute differently, or not at all, is refused with the case file named") {
  TempDir dir;
  const auto refused = [&](const std::string& text) {
    const Case c = load_case(dir.write("refused.yaml", text));
    return error_of([&] { deck_of(c); });
  };
  const std::string hex27 = refused(clamped_block("  element: hex\n  order: 2"));
  CHECK(hex27.find("hex27") != std::string::npos);
  const std::string lumped = refused(clamped_block("  element: hex", ", mass: lumped"));
  CHECK(lumped.find("refused.yaml:") != std::string::npos);
  CHECK(lumped.find("lumped") != std::string::npos);
  CHECK(refused(clamped_block("  element: hex", ", shift: 10")).find("shift") != std::string::npos);
  std::string free_block = clamped_block("  element: hex");
  free_block.erase(free_block.find("boundary:"), free_block.find("analysis:") - free_block.find("boundary:"));
  CHECK(refused(free_block).find("held by nothing") != std::string::npos);
}

TEST_CASE("the eigenvalue table of a CalculiX .dat file is read, and a broken one refused by name") {
  const std::string table = R"(
     E I G E N V A L U E   O U T P U T

 MODE NO    EIGENVALUE                       FREQUENCY
                                     REAL PART            IMAGINARY PART
                           (RAD/TIME)      (CYCLES/TIME     (RAD/TIME)

      1   0.1118614E+07   0.1057646E+04   0.1683299E+03   0.0000000E+00
      2   0.1649393E+07   0.1284287E+04   0.2044000E+03   0.0000000E+00

     P A R T I C I P A T I O N   F A C T O R S
)";
  std::istringstream dat(table);
  const auto lambda = read_calculix_eigenvalues(dat, "job.dat");
  REQUIRE(lambda.size() == 2);
  CHECK(lambda[1] == doctest::Approx(0.1649393e7));
  std::istringstream broken("     E I G E N V A L U E   O U T P U T\n\n      1   0.11E+07\n      3   0.12E+07\n");
  CHECK(error_of([&] { read_calculix_eigenvalues(broken, "job.dat"); }).find("job.dat: line") != std::string::npos);
  std::istringstream none("nothing here\n");
  CHECK(error_of([&] { read_calculix_eigenvalues(none, "job.dat"); }).find("no eigenvalue table") != std::string::npos);
}

TEST_CASE("ccx and fem find the same lowest frequencies on the same mesh") {
  if (!on_path("ccx")) {
    MESSAGE("ccx is not installed (Debian: calculix-ccx): the comparison with CalculiX is skipped");
    return;
  }
  TempDir dir;
  CalculixComparisonSettings settings;
  settings.modes = 6;
  settings.methods = {"multifrontal", "lobpcg"};
  settings.ccx_time_limit_s = 120;
  const auto compare = [&](const std::string& mesh, const std::string& divisions) {
    std::string text = clamped_block(mesh);
    text.replace(text.find("[8, 2, 2]"), 9, divisions);
    const CalculixComparison r = compare_with_calculix(load_case(dir.write("block.yaml", text)), settings);
    REQUIRE(r.calculix_status == "ok");
    REQUIRE(r.calculix.frequencies_hz.size() == 6);
    std::vector<double> differences;
    for (const auto& row : r.fem) {
      CAPTURE(row.status);
      REQUIRE(row.status == "ok");
      differences.push_back(max_relative_difference(row.frequencies_hz, r.calculix.frequencies_hz));
    }
    return differences;
  };
  SUBCASE("hex8 and hex20: both integrate exactly, so only ccx's 8 printed digits part them") {
    for (const char* mesh : {"  element: hex", "  element: hex\n  order: 2\n  serendipity: true"})
      for (const double d : compare(mesh, "[8, 2, 2]")) {
        CAPTURE(mesh);
        CHECK(d < 1e-6);
      }
  }
  SUBCASE("tet10: CalculiX's 4-point mass parts them by O(h^4), so halving h divides it by about 16") {
    settings.methods = {"multifrontal"};
    const double coarse = compare("  element: tet\n  order: 2", "[6, 2, 2]")[0];
    const double fine = compare("  element: tet\n  order: 2", "[12, 4, 4]")[0];
    CAPTURE(coarse);
    CAPTURE(fine);
    CHECK(coarse > 1e-6);  // a real difference, not roundoff
    CHECK(coarse / fine > 8);  // 13 at these coarse meshes, 16 in the limit
    CHECK(coarse / fine < 25);
  }
}

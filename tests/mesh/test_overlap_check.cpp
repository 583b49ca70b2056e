// The checks of cells and nodes that occupy the same space (fem/mesh/overlap_check.hpp) and what
// they stand on: the box tree against a brute-force search, the point-in-cell test against the
// reference element's own inequalities, and check_mesh on every element type fem supports:
// undisturbed and distorted meshes pass, overlapping parts, repeated cells and cracks do not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/elements/reference_element.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/mesh/box_tree.hpp"
#include "fem/mesh/mesh_check.hpp"
#include "fem/mesh/point_in_cell.hpp"

using namespace fem;

namespace {

struct Kind {
  ElementShape shape;
  int order;
  bool serendipity;
};

const std::vector<Kind> kEveryType = {
    {ElementShape::Triangle, 1, false},      {ElementShape::Triangle, 2, false},    {ElementShape::Quadrilateral, 1, false},
    {ElementShape::Quadrilateral, 2, true},  {ElementShape::Quadrilateral, 2, false}, {ElementShape::Tetrahedron, 1, false},
    {ElementShape::Tetrahedron, 2, false},   {ElementShape::Hexahedron, 1, false},  {ElementShape::Hexahedron, 2, true},
    {ElementShape::Hexahedron, 2, false}};

bool is_3d(const Kind& k) { return k.shape == ElementShape::Tetrahedron || k.shape == ElementShape::Hexahedron; }

std::string name_of(const Kind& k) { return std::string(element_info(element_type_for(k.shape, k.order, k.serendipity)).name); }

// A unit box of n cells a side from `origin`, its region group renamed.
Mesh box(const Kind& k, int n, std::vector<double> origin, const std::string& group) {
  BoxSpec spec;
  const std::size_t dim = is_3d(k) ? 3 : 2;
  spec.size.assign(dim, 1.0);
  spec.divisions.assign(dim, n);
  spec.shape = k.shape;
  spec.order = k.order;
  spec.serendipity = k.serendipity;
  origin.resize(dim);
  spec.origin = origin;
  Mesh mesh = make_box_mesh(spec);
  for (auto& g : mesh.groups)
    if (g.name == "box") g.name = group;
  mesh.source = "test.msh";
  return mesh;
}

// `extra`'s cells and groups added to `mesh`, with nodes of their own.
void append(Mesh& mesh, const Mesh& extra) {
  const int shift = static_cast<int>(mesh.num_nodes());
  const std::size_t cells = mesh.cells.size(), faces = mesh.boundary.size();
  mesh.coords.insert(mesh.coords.end(), extra.coords.begin(), extra.coords.end());
  for (std::size_t e = 0; e < extra.cells.size(); ++e) {
    std::vector<int> nodes(extra.cells.nodes_of(e).begin(), extra.cells.nodes_of(e).end());
    for (int& n : nodes) n += shift;
    mesh.cells.add(extra.cells.type[e], nodes);
  }
  for (std::size_t f = 0; f < extra.boundary.size(); ++f) {
    std::vector<int> nodes(extra.boundary.nodes_of(f).begin(), extra.boundary.nodes_of(f).end());
    for (int& n : nodes) n += shift;
    mesh.boundary.add(extra.boundary.type[f], nodes);
  }
  for (PhysicalGroup g : extra.groups) {
    if (mesh.find_group(g.name)) g.name += "2";
    for (auto& e : g.elements) e += g.dimension == mesh.dimension ? cells : faces;
    mesh.groups.push_back(g);
  }
}

// Moves every node but those on the box's faces by up to `amount` of a cell's size, reproducibly:
// the cells stay valid but none is a translate of another.
void distort(Mesh& mesh, double cell, double amount) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> shift(-amount * cell, amount * cell);
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    bool inner = true;
    for (int k = 0; k < mesh.dimension; ++k) {
      const double x = mesh.coords[3 * n + static_cast<std::size_t>(k)];
      inner = inner && x > 1e-9 && x < 1 - 1e-9;
    }
    if (inner)
      for (int k = 0; k < mesh.dimension; ++k) mesh.coords[3 * n + static_cast<std::size_t>(k)] += shift(random);
  }
}

std::string error_of(const Mesh& mesh, MeshCheckOptions options = {}) {
  try {
    check_mesh(mesh, options);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the box tree finds exactly the boxes a brute-force search finds") {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(0, 1), width(0, 0.2);
  std::vector<Box> boxes(500);
  for (std::size_t i = 0; i < boxes.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      // Graded: a fifth of the boxes crowded in a corner, as a refined region is.
      const double scale = i % 5 == 0 ? 0.01 : 1;
      boxes[i].lo[k] = scale * unit(random);
      boxes[i].hi[k] = boxes[i].lo[k] + scale * width(random);
    }
  const BoxTree tree(boxes);
  std::size_t hits = 0;
  for (int q = 0; q < 2000; ++q) {
    const double scale = q % 2 == 0 ? 0.012 : 1.1;
    const double p[3] = {scale * unit(random), scale * unit(random), scale * unit(random)};
    std::vector<std::size_t> found, expected;
    tree.for_each_holding(p, [&](std::size_t i) { found.push_back(i); return true; });
    for (std::size_t i = 0; i < boxes.size(); ++i)
      if (boxes[i].holds(p)) expected.push_back(i);
    std::sort(found.begin(), found.end());
    REQUIRE(found == expected);
    hits += found.size();
  }
  CHECK(hits > 200);  // the queries found boxes, not only empty space
  std::size_t visits = 0;
  const double corner[3] = {0, 0, 0};
  BoxTree(std::vector<Box>{}).for_each_holding(corner, [&](std::size_t) { ++visits; return true; });
  CHECK(visits == 0);
}

TEST_CASE("a point is strictly inside a cell exactly where its reference coordinates are") {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> around(-1.5, 1.5);
  // An affine map x = A xi + b of every reference element: the reference inequalities decide.
  const double A[3][3] = {{2.0, 0.3, -0.2}, {0.1, 1.5, 0.4}, {-0.3, 0.2, 1.2}}, b[3] = {4, -1, 2};
  for (const Kind& k : kEveryType) {
    CAPTURE(name_of(k));
    const ElementType type = element_type_for(k.shape, k.order, k.serendipity);
    const int dim = element_info(type).dimension, n = element_info(type).num_nodes;
    const auto ref = reference_nodes(type);
    const auto map = [&](const double* xi, double* x) {
      for (int a = 0; a < 3; ++a) {
        x[a] = a < dim ? b[a] : 0;
        for (int j = 0; j < dim && a < dim; ++j) x[a] += A[a][j] * xi[j];
      }
    };
    std::vector<double> xyz(3 * static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) map(&ref[static_cast<std::size_t>(i * dim)], &xyz[3 * static_cast<std::size_t>(i)]);
    const bool simplex = k.shape == ElementShape::Triangle || k.shape == ElementShape::Tetrahedron;
    int inside = 0;
    for (int q = 0; q < 400; ++q) {
      double xi[3] = {around(random), around(random), dim == 3 ? around(random) : 0}, x[3];
      if (simplex)
        for (double& v : xi) v = 0.5 * (v + 1) - 0.1;
      map(xi, x);
      double sum = 0, worst = 1;
      for (int j = 0; j < dim; ++j) {
        sum += xi[j];
        worst = std::min(worst, simplex ? xi[j] : 1 - std::abs(xi[j]));
      }
      if (simplex) worst = std::min(worst, 1 - sum);
      if (std::abs(worst) < 1e-3) continue;  // too near the boundary for the comparison to be sharp
      CHECK(point_strictly_inside(type, xyz, x) == (worst > 0));
      inside += worst > 0;
    }
    CHECK(inside > 10);
    // Nodes on the reference element's boundary are not inside; quad9's and hex27's centre is.
    for (int i = 0; i < n; ++i) {
      bool on_boundary = false;
      double sum = 0;
      for (int j = 0; j < dim; ++j) {
        const double xi = ref[static_cast<std::size_t>(i * dim + j)];
        on_boundary = on_boundary || (simplex ? xi == 0 : std::abs(xi) == 1);
        sum += xi;
      }
      on_boundary = on_boundary || (simplex && sum == 1);
      CHECK(point_strictly_inside(type, xyz, &xyz[3 * static_cast<std::size_t>(i)]) == !on_boundary);
    }
  }
}

TEST_CASE("a curved quadratic cell: inside follows its curved side, not its corners") {
  // A tri6 whose edge from (1,0) to (0,1) bulges out through its midside node at (0.7, 0.7).
  const std::vector<double> xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5, 0, 0, 0.7, 0.7, 0, 0, 0.5, 0};
  const double beyond_chord[3] = {0.55, 0.55, 0}, beyond_arc[3] = {0.75, 0.75, 0};
  CHECK(point_strictly_inside(ElementType::Tri6, xyz, beyond_chord));
  CHECK_FALSE(point_strictly_inside(ElementType::Tri6, xyz, beyond_arc));
}

TEST_CASE("meshes of every element type pass, undisturbed and distorted") {
  for (const Kind& k : kEveryType) {
    CAPTURE(name_of(k));
    Mesh mesh = box(k, 4, {}, "part");
    CHECK(error_of(mesh) == "");
    distort(mesh, 0.25, k.order == 1 ? 0.2 : 0.05);  // a quadratic cell's midside nodes bend its sides
    CHECK(error_of(mesh) == "");
    // Two blocks side by side that share the plane x = 1 with nodes of their own, as two parts
    // meant to touch: refused as a crack, passed when allowed.
    Mesh touching = box(k, 4, {}, "left");
    append(touching, box(k, 4, {1.0}, "right"));
    const std::string crack = error_of(touching);
    CHECK(contains(crack, "test.msh: the node at (1, "));
    CHECK(contains(crack, "group 'left'"));
    CHECK(contains(crack, "group 'right'"));
    CHECK(contains(crack, "are 0 apart but no element joins them"));
    CHECK(contains(crack, "mesh.allow_unmerged_nodes: true"));
    CHECK(error_of(touching, {.allow_unmerged_nodes = true}) == "");
  }
}

TEST_CASE("a second block partly inside the first is refused, naming a cell of each") {
  for (const Kind& k : kEveryType) {
    CAPTURE(name_of(k));
    for (const bool allowed : {false, true}) {
      Mesh mesh = box(k, 4, {}, "first");
      append(mesh, box(k, 4, {0.6, 0.35, 0.1}, "second"));
      const std::string message = error_of(mesh, {.allow_unmerged_nodes = allowed});
      CHECK(contains(message, "test.msh: "));
      CHECK(contains(message, "group 'first'"));
      CHECK(contains(message, "group 'second'"));
      CHECK((contains(message, "lies inside") || contains(message, "overlaps")));
    }
  }
}

TEST_CASE("a cell repeated with nodes of its own overlaps the original") {
  for (const Kind& k : kEveryType) {
    CAPTURE(name_of(k));
    Mesh mesh = box(k, 3, {}, "part");
    distort(mesh, 1.0 / 3, k.order == 1 ? 0.2 : 0.05);
    const std::size_t copied = mesh.cells.size() / 2;
    Mesh copy;
    copy.dimension = mesh.dimension;
    const auto nodes = mesh.cells.nodes_of(copied);
    std::vector<int> own;
    for (int n : nodes) {
      own.push_back(static_cast<int>(copy.num_nodes()));
      copy.coords.insert(copy.coords.end(), mesh.coords.begin() + 3 * n, mesh.coords.begin() + 3 * n + 3);
    }
    copy.cells.add(mesh.cells.type[copied], own);
    append(mesh, copy);
    for (const bool allowed : {false, true}) {
      const std::string message = error_of(mesh, {.allow_unmerged_nodes = allowed});
      CAPTURE(message);
      CHECK(contains(message, "element " + std::to_string(copied + 1) + " (" + name_of(k) + ", group 'part') overlaps element " +
                                  std::to_string(mesh.cells.size()) + " (" + name_of(k) + ", in no physical group): its centre"));
    }
  }
}

TEST_CASE("a crack whose two sides are nearly at one place is refused; a real gap is not") {
  for (const Kind& k : kEveryType) {
    CAPTURE(name_of(k));
    const auto moved = [&](double dx) {
      Mesh mesh = box(k, 4, {}, "left");
      Mesh right = box(k, 4, {1.0}, "right");
      for (std::size_t n = 0; n < right.num_nodes(); ++n) right.coords[3 * n] += dx;
      append(mesh, right);
      return error_of(mesh);
    };
    // Cells a quarter wide: 1e-3 of it is 2.5e-4.
    CHECK(contains(moved(1e-7), "1e-07 apart but no element joins them"));
    CHECK(contains(moved(-1e-7), "1e-07 apart but no element joins them"));
    CHECK(contains(moved(2e-4), "0.0002 apart"));
    CHECK(moved(1e-3) == "");  // a gap of 1/250 of a cell between two parts: meant
  }
}

TEST_CASE("coordinates whose squares overflow are refused before any box is made of them") {
  Mesh mesh = box({ElementShape::Tetrahedron, 1, false}, 2, {}, "part");
  for (double& x : mesh.coords) x *= 1e200;
  CHECK(contains(error_of(mesh), "test.msh: node 2 has a coordinate of 5e+199, beyond the 1e+100 fem computes with"));
}

// Modal analysis against theory: mass matrices that hold the body's mass for every element type,
// a slender cantilever's bending frequencies against Euler-Bernoulli, a free-free block's six
// rigid-body modes and its elastic ones against a dense solve of the same K and M, and lumped
// and consistent mass converging to the same frequency.
#include <doctest/doctest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "fem/analysis/modal_analysis.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "tests/support/solve.hpp"
#include "tests/verification/modal_pencil.hpp"

using namespace fem;
using namespace fem::testing;

namespace {

double sum_of(const CsrMatrix& m) {
  double s = 0;
  for (double v : m.val) s += v;
  return s;
}

}  // namespace

TEST_CASE("mass and heat capacity matrices hold the body's mass for every element type, consistent and lumped") {
  struct Kind {
    ElementShape shape;
    int order;
    bool serendipity;
  };
  const Kind kinds[] = {{ElementShape::Triangle, 1, false},      {ElementShape::Triangle, 2, false},
                        {ElementShape::Quadrilateral, 1, false}, {ElementShape::Quadrilateral, 2, true},
                        {ElementShape::Quadrilateral, 2, false}, {ElementShape::Tetrahedron, 1, false},
                        {ElementShape::Tetrahedron, 2, false},   {ElementShape::Hexahedron, 1, false},
                        {ElementShape::Hexahedron, 2, true},     {ElementShape::Hexahedron, 2, false}};
  const double rho = 7800, thickness = 0.3;
  for (const Kind& kind : kinds) {
    const bool is3d = kind.shape == ElementShape::Tetrahedron || kind.shape == ElementShape::Hexahedron;
    const BoxSpec spec = is3d ? BoxSpec{{1.0, 0.5, 0.4}, {3, 2, 2}, kind.shape, kind.order, kind.serendipity}
                              : BoxSpec{{1.0, 0.5}, {3, 2}, kind.shape, kind.order, kind.serendipity};
    const Mesh mesh = make_box_mesh(spec);
    CAPTURE(element_info(mesh.cells.type[0]).name);
    const double volume = is3d ? 0.2 : 0.5 * thickness;
    Problem p = elastic_box(mesh, is3d ? ElasticModel::Solid3D : ElasticModel::PlaneStress, thickness, rho);
    for (MassLumping lumping : {MassLumping::Consistent, MassLumping::Lumped}) {
      const Pencil pencil = pencil_of(p, lumping);
      CHECK(pencil.total_mass == doctest::Approx(rho * volume).epsilon(1e-12));
      CHECK(sum_of(pencil.m) == doctest::Approx(mesh.dimension * rho * volume).epsilon(1e-12));
      if (lumping == MassLumping::Lumped)
        for (std::int64_t i = 0; i < pencil.m.rows; ++i)
          for (auto q = pencil.m.row_ptr[i]; q < pencil.m.row_ptr[i + 1]; ++q)
            CHECK((pencil.m.col[q] == i ? pencil.m.val[q] > 0 : pencil.m.val[q] == 0));
    }
    // Heat: the capacity density * specific_heat on one equation per node.
    p.physics.type = PhysicsType::Heat;
    p.materials[0].specific_heat = 450;
    const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    const CsrMatrix c = assemble_mass(p, make_dof_map(mesh.num_nodes(), 1), graph);
    CHECK(c.rows == static_cast<std::int64_t>(mesh.num_nodes()));
    CHECK(sum_of(c) == doctest::Approx(rho * 450 * volume).epsilon(1e-12));
  }
}

TEST_CASE("a slender cantilever's first two bending frequencies within 1.5% of Euler-Bernoulli") {
  const double L = 10, h = 0.25, t = 0.5, E = 70e9, rho = 2700;
  for (bool serendipity : {false, true}) {
    CAPTURE(serendipity);
    const Mesh mesh = make_box_mesh({{L, h}, {80, 2}, ElementShape::Quadrilateral, 2, serendipity});
    Problem p = elastic_box(mesh, ElasticModel::PlaneStress, t, rho);
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, false}, {}, {}});
    const auto modal = modes_of(p, 3);
    const double I = t * h * h * h / 12, A = t * h;
    const double base = std::sqrt(E * I / (rho * A * std::pow(L, 4))) / (2 * std::numbers::pi);
    const double beam[2] = {1.8751040687 * 1.8751040687 * base, 4.6940911330 * 4.6940911330 * base};
    for (int i = 0; i < 2; ++i) {
      MESSAGE("bending mode " << i + 1 << ": " << modal.frequencies_hz[i] << " Hz, Euler-Bernoulli " << beam[i] << " Hz");
      CHECK(std::abs(modal.frequencies_hz[i] / beam[i] - 1) < 0.015);
      // Bending: the tip moves across the beam, not along it.
      CHECK(modal.effective_mass[i][1] > 10 * modal.effective_mass[i][0]);
    }
  }
}

TEST_CASE("a free-free block: six rigid-body modes near zero, elastic modes as a dense solve of the same K and M") {
  const Mesh mesh = make_box_mesh({{1.0, 0.6, 0.4}, {4, 3, 2}, ElementShape::Hexahedron, 1, false});
  const Problem p = elastic_box(mesh, ElasticModel::Solid3D, 1, 7800);
  const int modes = 12;
  const auto modal = modes_of(p, modes);
  const double first_elastic = modal.frequencies_hz[6];
  for (int i = 0; i < 6; ++i) CHECK(modal.frequencies_hz[i] < 1e-4 * first_elastic);
  // The rigid-body modes carry the whole mass in each direction, the elastic ones none of it.
  for (int c = 0; c < 3; ++c) {
    double rigid = 0, elastic = 0;
    for (int i = 0; i < modes; ++i) (i < 6 ? rigid : elastic) += modal.effective_mass[i][c];
    CHECK(rigid == doctest::Approx(modal.total_mass).epsilon(1e-8));
    CHECK(elastic < 1e-8 * modal.total_mass);
  }

  // The same K and M, dense, through LAPACK's dsygv.
  const Pencil pencil = pencil_of(p, MassLumping::Consistent);
  const int n = static_cast<int>(pencil.m.rows);
  std::vector<double> k(n * n, 0.0), m(n * n, 0.0), w(n);
  for (int i = 0; i < n; ++i)
    for (auto q = pencil.m.row_ptr[i]; q < pencil.m.row_ptr[i + 1]; ++q) {
      k[i * n + pencil.k.matrix.col[q]] = pencil.k.matrix.val[q];  // the same pattern
      m[i * n + pencil.m.col[q]] = pencil.m.val[q];
    }
  REQUIRE(LAPACKE_dsygv(LAPACK_ROW_MAJOR, 1, 'N', 'U', n, k.data(), n, m.data(), n, w.data()) == 0);
  for (int i = 6; i < modes; ++i) {
    const double dense = std::sqrt(w[i]) / (2 * std::numbers::pi);
    CAPTURE(i);
    CHECK(modal.frequencies_hz[i] == doctest::Approx(dense).epsilon(1e-9));
  }
}

TEST_CASE("lumped and consistent mass converge to the same frequency with refinement") {
  for (int order : {1, 2}) {  // row sum for linear elements, HRZ for quadratic ones
    CAPTURE(order);
    double previous_gap = 1;
    for (int divisions : {4, 8, 16}) {
      const Mesh mesh = make_box_mesh({{1.0, 1.0}, {divisions, divisions}, ElementShape::Quadrilateral, order, true});
      Problem p = elastic_box(mesh, ElasticModel::PlaneStress, 0.1, 2700);
      p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, false}, {}, {}});
      const double consistent = modes_of(p, 1).frequencies_hz[0];
      const double lumped = modes_of(p, 1, MassLumping::Lumped).frequencies_hz[0];
      const double gap = std::abs(lumped / consistent - 1);
      MESSAGE("order " << order << ", " << divisions << " divisions: consistent " << consistent << " Hz, lumped "
                       << lumped << " Hz");
      CHECK(gap < previous_gap);
      previous_gap = gap;
    }
    CHECK(previous_gap < (order == 1 ? 0.01 : 0.001));
  }
}

TEST_CASE("LOBPCG with AMG agrees with shift-invert Lanczos to 1e-8 in the lowest frequencies") {
  SUBCASE("the slender cantilever, plane stress, quad8") {
    const Mesh mesh = make_box_mesh({{10, 0.25}, {80, 2}, ElementShape::Quadrilateral, 2, true});
    Problem p = elastic_box(mesh, ElasticModel::PlaneStress, 0.5, 2700);
    p.dirichlet.push_back({"xmin", testing::nodes_of_groups(mesh, {"xmin"}), {true, true, false}, {}, {}});
    const auto lanczos = modes_of(p, 5), lobpcg = modes_of(p, 5, MassLumping::Consistent, EigenMethod::Lobpcg);
    for (int i = 0; i < 5; ++i) CHECK(lobpcg.frequencies_hz[i] == doctest::Approx(lanczos.frequencies_hz[i]).epsilon(1e-8));
  }
  SUBCASE("a free 3D block, hex20: rigid-body modes and elastic ones") {
    const Mesh mesh = make_box_mesh({{1.0, 0.6, 0.4}, {4, 3, 2}, ElementShape::Hexahedron, 2, true});
    const Problem p = elastic_box(mesh, ElasticModel::Solid3D, 1, 7800);
    const auto lanczos = modes_of(p, 10), lobpcg = modes_of(p, 10, MassLumping::Consistent, EigenMethod::Lobpcg);
    for (int i = 0; i < 6; ++i) CHECK(lobpcg.frequencies_hz[i] < 1e-4 * lobpcg.frequencies_hz[6]);
    for (int i = 6; i < 10; ++i)
      CHECK(lobpcg.frequencies_hz[i] == doctest::Approx(lanczos.frequencies_hz[i]).epsilon(1e-8));
  }
}

// Quadrature rules: exactness on monomials against the exact integrals over each reference
// domain, and the exact degree each rule reaches (so a wrong rule cannot pass).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "tests/elements/element_fixtures.hpp"

using namespace fem;

namespace {

constexpr std::array kShapes = {ElementShape::Line, ElementShape::Triangle, ElementShape::Quadrilateral,
                                ElementShape::Tetrahedron, ElementShape::Hexahedron};

int dimension_of(ElementShape s) {
  switch (s) {
    case ElementShape::Line: return 1;
    case ElementShape::Triangle: case ElementShape::Quadrilateral: return 2;
    default: return 3;
  }
}

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

// Exact integral of xi^e[0] eta^e[1] zeta^e[2] over the reference domain.
double exact_monomial_integral(ElementShape s, const std::array<int, 3>& e) {
  const int dim = dimension_of(s);
  if (test::is_simplex(s)) {
    // int u^i v^j (w^k) = i! j! (k!) / (i+j(+k)+dim)!
    double num = 1;
    int total = 0;
    for (int d = 0; d < dim; ++d) {
      num *= factorial(e[d]);
      total += e[d];
    }
    return num / factorial(total + dim);
  }
  double value = 1;
  for (int d = 0; d < dim; ++d) value *= e[d] % 2 ? 0.0 : 2.0 / (e[d] + 1);
  return value;
}

double rule_integral(const std::vector<QuadraturePoint>& rule, const std::array<int, 3>& e) {
  double sum = 0;
  for (const auto& q : rule) sum += q.weight * std::pow(q.xi[0], e[0]) * std::pow(q.xi[1], e[1]) * std::pow(q.xi[2], e[2]);
  return sum;
}

// Whether the rule integrates every monomial of total degree p (for tensor shapes also every
// monomial of degree <= p per direction, i.e. the full Q_p space) exactly.
bool exact_at_degree(ElementShape s, const std::vector<QuadraturePoint>& rule, int p) {
  const int dim = dimension_of(s);
  for (int i = 0; i <= p; ++i)
    for (int j = 0; j <= (dim > 1 ? p : 0); ++j)
      for (int k = 0; k <= (dim > 2 ? p : 0); ++k) {
        const int total = i + j + k;
        const bool in_space = test::is_simplex(s) ? total == p : std::max({i, j, k}) == p;
        if (!in_space) continue;
        const std::array<int, 3> e{i, j, k};
        const double exact = exact_monomial_integral(s, e);
        if (std::abs(rule_integral(rule, e) - exact) > 1e-13 * std::max(1.0, std::abs(exact))) return false;
      }
  return true;
}

// The highest degree up to which the rule is exact (checked up to 30).
int achieved_degree(ElementShape s, const std::vector<QuadraturePoint>& rule) {
  int p = 0;
  while (p <= 30 && exact_at_degree(s, rule, p)) ++p;
  return p - 1;
}

bool inside(ElementShape s, const std::array<double, 3>& xi) {
  const int dim = dimension_of(s);
  double sum = 0;
  for (int d = 0; d < dim; ++d) {
    if (test::is_simplex(s) ? xi[d] <= 0 : std::abs(xi[d]) >= 1) return false;
    sum += xi[d];
  }
  return !test::is_simplex(s) || sum < 1;
}

}  // namespace

TEST_CASE("quadrature: every rule is exact to its degree, has positive weights inside the domain") {
  for (ElementShape s : kShapes) {
    for (int p = 0; p <= kMaxQuadratureDegree; ++p) {
      CAPTURE(int(s));
      CAPTURE(p);
      const auto& rule = quadrature_rule(s, p);
      double total = 0;
      for (const auto& q : rule) {
        CHECK(q.weight > 0);
        CHECK(inside(s, q.xi));
        for (int d = dimension_of(s); d < 3; ++d) CHECK(q.xi[d] == 0);
        total += q.weight;
      }
      CHECK(total == doctest::Approx(reference_measure(s)).epsilon(1e-14));
      const int achieved = achieved_degree(s, rule);
      CHECK(achieved >= p);
      CHECK(achieved <= 30);  // it fails somewhere above, so the check above can fail
    }
  }
}

TEST_CASE("quadrature: random polynomials up to the rule's degree") {
  // A random combination of all monomials of total degree <= p, against the exact integral.
  std::mt19937 rng(404);
  std::uniform_real_distribution<double> coef(-1, 1);
  for (ElementShape s : kShapes) {
    const int dim = dimension_of(s);
    for (int p : {1, 2, 3, 4, 5, 7, 10}) {
      CAPTURE(int(s));
      CAPTURE(p);
      const auto& rule = quadrature_rule(s, p);
      double exact = 0, approx = 0;
      for (int i = 0; i <= p; ++i)
        for (int j = 0; j <= (dim > 1 ? p - i : 0); ++j)
          for (int k = 0; k <= (dim > 2 ? p - i - j : 0); ++k) {
            const double c = coef(rng);
            exact += c * exact_monomial_integral(s, {i, j, k});
            approx += c * rule_integral(rule, {i, j, k});
          }
      CHECK(approx == doctest::Approx(exact).epsilon(1e-13));
    }
  }
}

TEST_CASE("quadrature: the named rules reach exactly their documented degree") {
  using S = ElementShape;
  // Gauss-Legendre with n points: degree 2n-1, and not 2n.
  for (int n = 1; n <= 8; ++n) {
    CAPTURE(n);
    const auto& line = quadrature_rule(S::Line, 2 * n - 1);
    CHECK(line.size() == std::size_t(n));
    CHECK(achieved_degree(S::Line, line) == 2 * n - 1);
    CHECK(achieved_degree(S::Quadrilateral, quadrature_rule(S::Quadrilateral, 2 * n - 1)) == 2 * n - 1);
    CHECK(achieved_degree(S::Hexahedron, quadrature_rule(S::Hexahedron, 2 * n - 1)) == 2 * n - 1);
  }
  struct Named {
    S shape;
    int degree;
    std::size_t points;
    int achieved;
  };
  for (const Named& r : {Named{S::Triangle, 1, 1, 1}, Named{S::Triangle, 2, 3, 2}, Named{S::Triangle, 4, 6, 4},
                         Named{S::Triangle, 5, 7, 5}, Named{S::Tetrahedron, 1, 1, 1},
                         Named{S::Tetrahedron, 2, 4, 2}, Named{S::Tetrahedron, 5, 14, 5}}) {
    CAPTURE(int(r.shape));
    CAPTURE(r.degree);
    const auto& rule = quadrature_rule(r.shape, r.degree);
    CHECK(rule.size() == r.points);
    CHECK(achieved_degree(r.shape, rule) == r.achieved);
  }
}

TEST_CASE("quadrature: unsupported degrees throw") {
  CHECK_THROWS_AS(quadrature_rule(ElementShape::Triangle, -1), std::invalid_argument);
  CHECK_THROWS_AS(quadrature_rule(ElementShape::Hexahedron, kMaxQuadratureDegree + 1), std::invalid_argument);
}

TEST_CASE("quadrature: stiffness and mass degrees give the usual point counts") {
  using T = ElementType;
  struct Expect {
    T type;
    std::size_t stiffness_points, mass_points;
  };
  for (const Expect& e : {Expect{T::Tri3, 3, 3}, Expect{T::Tri6, 6, 6}, Expect{T::Quad4, 4, 4},
                          Expect{T::Quad8, 9, 9}, Expect{T::Quad9, 9, 9}, Expect{T::Tet4, 4, 4},
                          Expect{T::Tet10, 14, 14}, Expect{T::Hex8, 8, 8}, Expect{T::Hex20, 27, 27},
                          Expect{T::Hex27, 27, 27}, Expect{T::Line2, 2, 2}, Expect{T::Line3, 3, 3}}) {
    CAPTURE(element_info(e.type).name);
    const ElementShape s = element_info(e.type).shape;
    CHECK(quadrature_rule(s, stiffness_quadrature_degree(e.type)).size() == e.stiffness_points);
    CHECK(quadrature_rule(s, mass_quadrature_degree(e.type)).size() == e.mass_points);
  }
}

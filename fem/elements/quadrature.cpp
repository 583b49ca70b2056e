#include "fem/elements/quadrature.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

namespace fem {
namespace {

using Rule = std::vector<QuadraturePoint>;

struct Gauss1D {
  std::vector<double> x, w;  // on [-1, 1]
};

// n-point Gauss-Legendre: Newton on P_n from Chebyshev-like first guesses; converges to
// machine precision in a few steps for the small n used here.
Gauss1D gauss_legendre(int n) {
  Gauss1D g{std::vector<double>(n), std::vector<double>(n)};
  for (int i = 0; i < n; ++i) {
    double x = std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
    double dp = 0;
    for (int iter = 0; iter < 100; ++iter) {
      double p0 = 1, p1 = x;  // three-term recurrence for P_n(x) and P_{n-1}(x)
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double step = p1 / dp;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    g.x[i] = x;
    g.w[i] = 2 / ((1 - x * x) * dp * dp);
  }
  return g;
}

// Gauss points needed to integrate a 1D polynomial of the given degree exactly.
int gauss_points_for(int degree) { return degree / 2 + 1; }

Gauss1D gauss_for(int degree) { return gauss_legendre(gauss_points_for(degree)); }

Rule tensor_rule(int dim, int degree) {
  const Gauss1D g = gauss_for(degree);
  const int n = int(g.x.size());
  Rule rule;
  const int total = dim == 1 ? n : (dim == 2 ? n * n : n * n * n);
  for (int q = 0; q < total; ++q) {
    QuadraturePoint p{{0, 0, 0}, 1};
    int index = q;
    for (int d = 0; d < dim; ++d) {  // xi_0 runs fastest
      p.xi[d] = g.x[index % n];
      p.weight *= g.w[index % n];
      index /= n;
    }
    rule.push_back(p);
  }
  return rule;
}

// Collapsed (Duffy) rules: a Gauss product on the unit square/cube mapped onto the simplex.
// Triangle: u = s, v = t(1-s), dA = (1-s) ds dt; a degree-p polynomial becomes degree p+1 in s.
Rule collapsed_triangle(int degree) {
  Gauss1D gs = gauss_for(degree + 1), gt = gauss_for(degree);
  Rule rule;
  for (std::size_t i = 0; i < gs.x.size(); ++i) {
    const double s = 0.5 * (1 + gs.x[i]);
    for (std::size_t j = 0; j < gt.x.size(); ++j) {
      const double t = 0.5 * (1 + gt.x[j]);
      rule.push_back({{s, t * (1 - s), 0}, 0.25 * gs.w[i] * gt.w[j] * (1 - s)});
    }
  }
  return rule;
}

// Tetrahedron: u = s, v = t(1-s), w = r(1-s)(1-t), dV = (1-s)^2 (1-t) ds dt dr.
Rule collapsed_tetrahedron(int degree) {
  Gauss1D gs = gauss_for(degree + 2), gt = gauss_for(degree + 1), gr = gauss_for(degree);
  Rule rule;
  for (std::size_t i = 0; i < gs.x.size(); ++i) {
    const double s = 0.5 * (1 + gs.x[i]);
    for (std::size_t j = 0; j < gt.x.size(); ++j) {
      const double t = 0.5 * (1 + gt.x[j]);
      for (std::size_t k = 0; k < gr.x.size(); ++k) {
        const double r = 0.5 * (1 + gr.x[k]);
        const double weight = 0.125 * gs.w[i] * gt.w[j] * gr.w[k] * (1 - s) * (1 - s) * (1 - t);
        rule.push_back({{s, t * (1 - s), r * (1 - s) * (1 - t)}, weight});
      }
    }
  }
  return rule;
}

// Symmetric orbits in barycentric coordinates; the point is (L1, L2[, L3]).
void add_tri_orbit_s21(Rule& rule, double a, double w) {  // perms of (a, a, 1-2a)
  const double b = 1 - 2 * a;
  rule.push_back({{a, a, 0}, w});
  rule.push_back({{a, b, 0}, w});
  rule.push_back({{b, a, 0}, w});
}

void add_tet_orbit_s31(Rule& rule, double a, double w) {  // perms of (a, a, a, 1-3a)
  const double b = 1 - 3 * a;
  rule.push_back({{a, a, a}, w});
  rule.push_back({{b, a, a}, w});
  rule.push_back({{a, b, a}, w});
  rule.push_back({{a, a, b}, w});
}

void add_tet_orbit_s22(Rule& rule, double c, double w) {  // perms of (c, c, 1/2-c, 1/2-c)
  const double d = 0.5 - c;
  for (const auto& p : {std::array{c, d, d}, std::array{d, c, d}, std::array{d, d, c},
                        std::array{d, c, c}, std::array{c, d, c}, std::array{c, c, d}})
    rule.push_back({p, w});
}

Rule triangle_rule(int degree) {
  Rule rule;
  if (degree <= 1) {
    rule.push_back({{1.0 / 3, 1.0 / 3, 0}, 0.5});
  } else if (degree == 2) {
    add_tri_orbit_s21(rule, 1.0 / 6, 1.0 / 6);
  } else if (degree <= 4) {
    // Dunavant's 6-point degree-4 rule; the orbit parameters solve the moment equations
    // (re-derived to 20 digits). Per-point weights below are for unit area, hence the 1/2.
    add_tri_orbit_s21(rule, 0.44594849091596488632, 0.5 * 0.2233815896780114657);
    add_tri_orbit_s21(rule, 0.09157621350977074346, 0.5 * 0.10995174365532186764);
  } else if (degree == 5) {
    // Radon's 7-point rule, closed form.
    const double r = std::sqrt(15.0);
    rule.push_back({{1.0 / 3, 1.0 / 3, 0}, 9.0 / 80});
    add_tri_orbit_s21(rule, (6 - r) / 21, (155 - r) / 2400);
    add_tri_orbit_s21(rule, (6 + r) / 21, (155 + r) / 2400);
  } else {
    rule = collapsed_triangle(degree);
  }
  return rule;
}

Rule tetrahedron_rule(int degree) {
  Rule rule;
  if (degree <= 1) {
    rule.push_back({{0.25, 0.25, 0.25}, 1.0 / 6});
  } else if (degree == 2) {
    add_tet_orbit_s31(rule, (5 - std::sqrt(5.0)) / 20, 1.0 / 24);
  } else if (degree <= 5) {
    // 14-point degree-5 rule with positive weights (Walkington; also Keast's family): two S31
    // orbits and one S22 orbit; parameters re-derived from the moment equations to 20 digits.
    // Per-point weights below are for unit volume, hence the 1/6.
    add_tet_orbit_s31(rule, 0.092735250310891226402, 0.073493043116361949544 / 6);
    add_tet_orbit_s31(rule, 0.3108859192633006098, 0.1126879257180158508 / 6);
    add_tet_orbit_s22(rule, 0.045503704125649649492, 0.042546020777081466438 / 6);
  } else {
    rule = collapsed_tetrahedron(degree);
  }
  return rule;
}

Rule point_rule() { return {{{0, 0, 0}, 1}}; }

Rule make_rule(ElementShape shape, int degree) {
  switch (shape) {
    case ElementShape::Point: return point_rule();
    case ElementShape::Line: return tensor_rule(1, degree);
    case ElementShape::Quadrilateral: return tensor_rule(2, degree);
    case ElementShape::Hexahedron: return tensor_rule(3, degree);
    case ElementShape::Triangle: return triangle_rule(degree);
    case ElementShape::Tetrahedron: return tetrahedron_rule(degree);
  }
  throw std::invalid_argument("unknown element shape");
}

constexpr int kNumShapes = 6;
using RuleTable = std::array<std::array<Rule, kMaxQuadratureDegree + 1>, kNumShapes>;

// Every rule is built once, on first use (thread-safe static initialisation).
const RuleTable& rule_table() {
  static const RuleTable table = [] {
    RuleTable t;
    for (int s = 0; s < kNumShapes; ++s)
      for (int d = 0; d <= kMaxQuadratureDegree; ++d) t[s][d] = make_rule(ElementShape(s), d);
    return t;
  }();
  return table;
}

bool is_simplex(ElementShape shape) {
  return shape == ElementShape::Triangle || shape == ElementShape::Tetrahedron;
}

}  // namespace

const std::vector<QuadraturePoint>& quadrature_rule(ElementShape shape, int degree) {
  if (degree < 0 || degree > kMaxQuadratureDegree)
    throw std::invalid_argument("no quadrature rule of degree " + std::to_string(degree) +
                                " (supported: 0.." + std::to_string(kMaxQuadratureDegree) + ")");
  const int s = int(shape);
  if (s < 0 || s >= kNumShapes) throw std::invalid_argument("unknown element shape");
  return rule_table()[s][degree];
}

int stiffness_quadrature_degree(ElementType type) {
  const auto& info = element_info(type);
  return 2 * info.order;
}

int mass_quadrature_degree(ElementType type) {
  const auto& info = element_info(type);
  return is_simplex(info.shape) || info.shape == ElementShape::Point ? 2 * info.order
                                                                     : 2 * info.order + 1;
}

}  // namespace fem

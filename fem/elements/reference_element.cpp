#include "fem/elements/reference_element.hpp"

#include <stdexcept>
#include <string>

namespace fem {
namespace {

using T = ElementType;

// Node coordinates, Gmsh order (gmsh.info "Node ordering"; equal to what
// gmsh::model::mesh::getElementProperties reports).
constexpr double kPoint1[] = {0.0};  // a point has no coordinates; one entry keeps the array legal
constexpr double kLine2[] = {-1, 1};
constexpr double kLine3[] = {-1, 1, 0};
constexpr double kTri3[] = {0, 0, 1, 0, 0, 1};
constexpr double kTri6[] = {0, 0, 1, 0, 0, 1, 0.5, 0, 0.5, 0.5, 0, 0.5};
constexpr double kQuad4[] = {-1, -1, 1, -1, 1, 1, -1, 1};
constexpr double kQuad9[] = {-1, -1, 1, -1, 1, 1, -1, 1,   // vertices
                             0, -1, 1, 0, 0, 1, -1, 0,     // edges 01 12 23 30
                             0, 0};                        // centre
constexpr double kTet4[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
constexpr double kTet10[] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1,
                             0.5, 0, 0,      // 4: edge 01
                             0.5, 0.5, 0,    // 5: edge 12
                             0, 0.5, 0,      // 6: edge 20
                             0, 0, 0.5,      // 7: edge 30
                             0, 0.5, 0.5,    // 8: edge 23
                             0.5, 0, 0.5};   // 9: edge 13
constexpr double kHex27[] = {
    -1, -1, -1, 1, -1, -1, 1, 1, -1, -1, 1, -1,  // 0-3: bottom vertices
    -1, -1, 1,  1, -1, 1,  1, 1, 1,  -1, 1, 1,   // 4-7: top vertices
    0, -1, -1,   // 8: edge 01
    -1, 0, -1,   // 9: edge 03
    -1, -1, 0,   // 10: edge 04
    1, 0, -1,    // 11: edge 12
    1, -1, 0,    // 12: edge 15
    0, 1, -1,    // 13: edge 23
    1, 1, 0,     // 14: edge 26
    -1, 1, 0,    // 15: edge 37
    0, -1, 1,    // 16: edge 45
    -1, 0, 1,    // 17: edge 47
    1, 0, 1,     // 18: edge 56
    0, 1, 1,     // 19: edge 67
    0, 0, -1,    // 20: face 0321 (z=-1)
    0, -1, 0,    // 21: face 0154 (y=-1)
    -1, 0, 0,    // 22: face 0473 (x=-1)
    1, 0, 0,     // 23: face 1265 (x=+1)
    0, 1, 0,     // 24: face 2376 (y=+1)
    0, 0, 1,     // 25: face 4567 (z=+1)
    0, 0, 0};    // 26: centre

std::span<const double> nodes_of(T type) {
  const int n = element_info(type).num_nodes * element_info(type).dimension;
  switch (type) {
    case T::Point1: return {kPoint1, 0};
    case T::Line2: return {kLine2, std::size_t(n)};
    case T::Line3: return {kLine3, std::size_t(n)};
    case T::Tri3: return {kTri3, std::size_t(n)};
    case T::Tri6: return {kTri6, std::size_t(n)};
    case T::Quad4: return {kQuad4, std::size_t(n)};
    case T::Quad8: case T::Quad9: return {kQuad9, std::size_t(n)};  // quad8 = quad9 without the centre
    case T::Tet4: return {kTet4, std::size_t(n)};
    case T::Tet10: return {kTet10, std::size_t(n)};
    case T::Hex8: case T::Hex20: case T::Hex27: return {kHex27, std::size_t(n)};  // prefixes of hex27
  }
  throw std::invalid_argument("unknown element type");
}

// 1D Lagrange basis on [-1,1] in line3 order (nodes -1, +1, 0); order 1 uses the first two.
template <int Order>
void line_basis(double s, double* l, double* dl) {
  if constexpr (Order == 1) {
    l[0] = 0.5 * (1 - s);
    l[1] = 0.5 * (1 + s);
    dl[0] = -0.5;
    dl[1] = 0.5;
  } else {
    l[0] = 0.5 * s * (s - 1);
    l[1] = 0.5 * s * (s + 1);
    l[2] = 1 - s * s;
    dl[0] = s - 0.5;
    dl[1] = s + 0.5;
    dl[2] = -2 * s;
  }
}

// Index of a reference coordinate (-1, +1, 0) in line3 order.
int line_index(double c) { return c < -0.5 ? 0 : (c > 0.5 ? 1 : 2); }

// Tensor-product Lagrange (line2/3, quad4/9, hex8/27): N_i = prod_d l_{a(i,d)}(xi_d).
template <int Dim, int Order>
void tensor_lagrange(std::span<const double> ref, const double* xi, double* N, double* dN) {
  double l[Dim][Order + 1], dl[Dim][Order + 1];
  for (int d = 0; d < Dim; ++d) line_basis<Order>(xi[d], l[d], dl[d]);
  const int n = int(ref.size()) / Dim;
  for (int i = 0; i < n; ++i) {
    int a[Dim];
    for (int d = 0; d < Dim; ++d) a[d] = line_index(ref[i * Dim + d]);
    double value = 1;
    for (int d = 0; d < Dim; ++d) value *= l[d][a[d]];
    N[i] = value;
    for (int j = 0; j < Dim; ++j) {
      double g = dl[j][a[j]];
      for (int d = 0; d < Dim; ++d)
        if (d != j) g *= l[d][a[d]];
      dN[i * Dim + j] = g;
    }
  }
}

// Serendipity quad8/hex20. Vertex (a_d = +-1): prod(1 + a_d xi_d) (sum a_d xi_d - (Dim-1)) / 2^Dim.
// Edge node with a_k = 0: (1 - xi_k^2) prod_{d != k}(1 + a_d xi_d) / 2^(Dim-1).
template <int Dim>
void serendipity(std::span<const double> ref, const double* xi, double* N, double* dN) {
  constexpr double vertex_scale = 1.0 / (1 << Dim);
  constexpr double edge_scale = 1.0 / (1 << (Dim - 1));
  const int n = int(ref.size()) / Dim;
  for (int i = 0; i < n; ++i) {
    const double* a = &ref[i * Dim];
    double lin[Dim];  // 1 + a_d xi_d
    int zero_dir = -1;
    for (int d = 0; d < Dim; ++d) {
      lin[d] = 1 + a[d] * xi[d];
      if (a[d] == 0) zero_dir = d;
    }
    if (zero_dir < 0) {
      double prod = 1, sum = 0;
      for (int d = 0; d < Dim; ++d) {
        prod *= lin[d];
        sum += a[d] * xi[d];
      }
      const double bracket = sum - (Dim - 1);
      N[i] = vertex_scale * prod * bracket;
      for (int j = 0; j < Dim; ++j) {
        double others = 1;
        for (int d = 0; d < Dim; ++d)
          if (d != j) others *= lin[d];
        dN[i * Dim + j] = vertex_scale * a[j] * others * (bracket + lin[j]);
      }
    } else {
      const int k = zero_dir;
      const double bubble = 1 - xi[k] * xi[k];
      double prod = 1;
      for (int d = 0; d < Dim; ++d)
        if (d != k) prod *= lin[d];
      N[i] = edge_scale * bubble * prod;
      for (int j = 0; j < Dim; ++j) {
        if (j == k) {
          dN[i * Dim + j] = edge_scale * (-2 * xi[k]) * prod;
          continue;
        }
        double others = bubble;
        for (int d = 0; d < Dim; ++d)
          if (d != j && d != k) others *= lin[d];
        dN[i * Dim + j] = edge_scale * a[j] * others;
      }
    }
  }
}

// Simplex edges whose midpoints carry the P2 edge nodes, in Gmsh order.
constexpr int kTriEdges[3][2] = {{0, 1}, {1, 2}, {2, 0}};
constexpr int kTetEdges[6][2] = {{0, 1}, {1, 2}, {2, 0}, {3, 0}, {2, 3}, {1, 3}};

// P1/P2 on a simplex in barycentric coordinates L_0 = 1 - sum xi, L_{d+1} = xi_d.
template <int Dim, int Order>
void simplex(const double* xi, double* N, double* dN) {
  double L[Dim + 1], dL[Dim + 1][Dim] = {};
  L[0] = 1;
  for (int d = 0; d < Dim; ++d) {
    L[0] -= xi[d];
    L[d + 1] = xi[d];
    dL[0][d] = -1;
    dL[d + 1][d] = 1;
  }
  if constexpr (Order == 1) {
    for (int i = 0; i <= Dim; ++i) {
      N[i] = L[i];
      for (int j = 0; j < Dim; ++j) dN[i * Dim + j] = dL[i][j];
    }
  } else {
    for (int i = 0; i <= Dim; ++i) {
      N[i] = L[i] * (2 * L[i] - 1);
      for (int j = 0; j < Dim; ++j) dN[i * Dim + j] = (4 * L[i] - 1) * dL[i][j];
    }
    constexpr int num_edges = Dim == 2 ? 3 : 6;
    const int(*edges)[2] = Dim == 2 ? kTriEdges : kTetEdges;
    for (int e = 0; e < num_edges; ++e) {
      const int a = edges[e][0], b = edges[e][1], i = Dim + 1 + e;
      N[i] = 4 * L[a] * L[b];
      for (int j = 0; j < Dim; ++j) dN[i * Dim + j] = 4 * (L[a] * dL[b][j] + L[b] * dL[a][j]);
    }
  }
}

// Facets in Gmsh's own face order, each listed counter-clockwise seen from outside (outward
// normal), vertices then edge nodes then face centre; lower-order types use a prefix of a row.
constexpr int kLineFacets[2][1] = {{0}, {1}};
constexpr int kTriFacets[3][3] = {{0, 1, 3}, {1, 2, 4}, {2, 0, 5}};
constexpr int kQuadFacets[4][3] = {{0, 1, 4}, {1, 2, 5}, {2, 3, 6}, {3, 0, 7}};
constexpr int kTetFacets[4][6] = {
    {0, 2, 1, 6, 5, 4}, {0, 1, 3, 4, 9, 7}, {0, 3, 2, 7, 8, 6}, {1, 2, 3, 5, 8, 9}};
constexpr int kHexFacets[6][9] = {
    {0, 3, 2, 1, 9, 13, 11, 8, 20},  {0, 1, 5, 4, 8, 12, 16, 10, 21},
    {0, 4, 7, 3, 10, 17, 15, 9, 22}, {1, 2, 6, 5, 11, 14, 18, 12, 23},
    {2, 3, 7, 6, 13, 15, 19, 14, 24}, {4, 5, 6, 7, 16, 18, 19, 17, 25}};

}  // namespace

std::span<const double> reference_nodes(ElementType type) { return nodes_of(type); }

double reference_measure(ElementShape shape) {
  switch (shape) {
    case ElementShape::Point: return 1;
    case ElementShape::Line: return 2;
    case ElementShape::Triangle: return 0.5;
    case ElementShape::Quadrilateral: return 4;
    case ElementShape::Tetrahedron: return 1.0 / 6.0;
    case ElementShape::Hexahedron: return 8;
  }
  throw std::invalid_argument("unknown element shape");
}

void shape_functions_and_derivatives(ElementType type, const double* xi, double* N, double* dN) {
  const auto ref = nodes_of(type);
  switch (type) {
    case T::Point1: N[0] = 1; return;
    case T::Line2: return tensor_lagrange<1, 1>(ref, xi, N, dN);
    case T::Line3: return tensor_lagrange<1, 2>(ref, xi, N, dN);
    case T::Quad4: return tensor_lagrange<2, 1>(ref, xi, N, dN);
    case T::Quad9: return tensor_lagrange<2, 2>(ref, xi, N, dN);
    case T::Hex8: return tensor_lagrange<3, 1>(ref, xi, N, dN);
    case T::Hex27: return tensor_lagrange<3, 2>(ref, xi, N, dN);
    case T::Quad8: return serendipity<2>(ref, xi, N, dN);
    case T::Hex20: return serendipity<3>(ref, xi, N, dN);
    case T::Tri3: return simplex<2, 1>(xi, N, dN);
    case T::Tri6: return simplex<2, 2>(xi, N, dN);
    case T::Tet4: return simplex<3, 1>(xi, N, dN);
    case T::Tet10: return simplex<3, 2>(xi, N, dN);
  }
  throw std::invalid_argument("unknown element type");
}

void shape_functions(ElementType type, const double* xi, double* N) {
  double dN[kMaxElementNodes * 3];
  shape_functions_and_derivatives(type, xi, N, dN);
}

void shape_derivatives(ElementType type, const double* xi, double* dN) {
  double N[kMaxElementNodes];
  shape_functions_and_derivatives(type, xi, N, dN);
}

int num_facets(ElementType type) {
  switch (element_info(type).shape) {
    case ElementShape::Line: return 2;
    case ElementShape::Triangle: return 3;
    case ElementShape::Quadrilateral: return 4;
    case ElementShape::Tetrahedron: return 4;
    case ElementShape::Hexahedron: return 6;
    case ElementShape::Point: break;
  }
  throw std::invalid_argument("a point has no facets");
}

std::span<const int> facet_nodes(ElementType type, int facet) {
  const int count = num_facets(type);
  if (facet < 0 || facet >= count)
    throw std::out_of_range("facet " + std::to_string(facet) + " of a " +
                            std::string(element_info(type).name) + " (it has " +
                            std::to_string(count) + ")");
  const std::size_t n = std::size_t(element_info(facet_type_of(type)).num_nodes);
  switch (element_info(type).shape) {
    case ElementShape::Line: return {kLineFacets[facet], n};
    case ElementShape::Triangle: return {kTriFacets[facet], n};
    case ElementShape::Quadrilateral: return {kQuadFacets[facet], n};
    case ElementShape::Tetrahedron: return {kTetFacets[facet], n};
    case ElementShape::Hexahedron: return {kHexFacets[facet], n};
    case ElementShape::Point: break;
  }
  throw std::invalid_argument("a point has no facets");
}

}  // namespace fem

#pragma once
// The element stiffness formulas at one quadrature point, written once for the host's assembly
// and the CUDA device's (both compile this header): the isoparametric map's Jacobian and the
// physical shape gradients, and the isotropic elasticity and conduction terms in closed form.
// Plain arrays only; node coordinates come 3 per node (z = 0 in 2D), shape derivatives as
// dN[a * dim + j] = dN_a/dxi_j.
#include <cmath>

#if defined(__CUDACC__)
#define FEM_HOST_DEVICE __host__ __device__
#else
#define FEM_HOST_DEVICE
#endif

namespace fem::element_stiffness {

// A determinant this small against the tangents' lengths is the roundoff of a flat element.
inline constexpr double kDegenerateRatio = 1e-12;

// The physical point x and the tangents t[j] = dx/dxi_j (3 components each) at one point.
// Accumulates in locals: through the output pointers the compiler would assume aliasing.
template <int Dim>
FEM_HOST_DEVICE inline void tangents(int num_nodes, const double* xyz, const double* N, const double* dN, double* x,
                                     double (*t)[3]) {
  double px[3] = {0, 0, 0}, tl[Dim][3] = {};
  for (int i = 0; i < num_nodes; ++i)
    for (int k = 0; k < 3; ++k) {
      const double c = xyz[i * 3 + k];
      px[k] += N[i] * c;
      for (int j = 0; j < Dim; ++j) tl[j][k] += dN[i * Dim + j] * c;
    }
  for (int k = 0; k < 3; ++k) {
    x[k] = px[k];
    for (int j = 0; j < Dim; ++j) t[j][k] = tl[j][k];
  }
}

// det J and inv[j][k] = dxi_j/dx_k (adjugate / det) from the tangents (the columns of J); a flat
// element gets det 0 exactly with inv left as it was.
template <int Dim>
FEM_HOST_DEVICE inline double invert_jacobian(const double (*t)[3], double (*inv)[3]) {
  double scale = 1;
  for (int j = 0; j < Dim; ++j) scale *= sqrt(t[j][0] * t[j][0] + t[j][1] * t[j][1] + t[j][2] * t[j][2]);
  if constexpr (Dim == 2) {
    const double det = t[0][0] * t[1][1] - t[1][0] * t[0][1];
    if (fabs(det) <= kDegenerateRatio * scale) return 0;
    const double r = 1 / det;
    inv[0][0] = t[1][1] * r;
    inv[0][1] = -t[1][0] * r;
    inv[1][0] = -t[0][1] * r;
    inv[1][1] = t[0][0] * r;
    return det;
  } else {
    // The rows of J^-1 are the cross products of J's columns, over det.
    const double bc[3] = {t[1][1] * t[2][2] - t[1][2] * t[2][1], t[1][2] * t[2][0] - t[1][0] * t[2][2],
                          t[1][0] * t[2][1] - t[1][1] * t[2][0]};
    const double ca[3] = {t[2][1] * t[0][2] - t[2][2] * t[0][1], t[2][2] * t[0][0] - t[2][0] * t[0][2],
                          t[2][0] * t[0][1] - t[2][1] * t[0][0]};
    const double ab[3] = {t[0][1] * t[1][2] - t[0][2] * t[1][1], t[0][2] * t[1][0] - t[0][0] * t[1][2],
                          t[0][0] * t[1][1] - t[0][1] * t[1][0]};
    const double det = t[0][0] * bc[0] + t[0][1] * bc[1] + t[0][2] * bc[2];
    if (fabs(det) <= kDegenerateRatio * scale) return 0;
    const double r = 1 / det;
    for (int k = 0; k < 3; ++k) {
      inv[0][k] = bc[k] * r;
      inv[1][k] = ca[k] * r;
      inv[2][k] = ab[k] * r;
    }
    return det;
  }
}

// Both: the point x, det J and inv (which the caller zeroes: a flat element leaves it so).
template <int Dim>
FEM_HOST_DEVICE inline double map_point(int num_nodes, const double* xyz, const double* N, const double* dN,
                                        double* x, double (*inv)[3]) {
  double t[Dim][3];
  tangents<Dim>(num_nodes, xyz, N, dN, x, t);
  return invert_jacobian<Dim>(t, inv);
}

// g[k] = dN_a/dx_k (3 values; k >= Dim is 0) from the reference derivatives of node a.
template <int Dim>
FEM_HOST_DEVICE inline void physical_gradient(const double* dN_a, const double (*inv)[3], double* g) {
  for (int k = 0; k < 3; ++k) {
    double s = 0;
    for (int j = 0; j < Dim; ++j) s += dN_a[j] * inv[j][k];
    g[k] = s;
  }
}

// An element's isotropic elastic material in the Lame form (plane stress
// with its lambda*), which makes B^T D B for node pair (a, b), with G = sum_q w g_a g_b^T:
//   K_ab = lambda G + mu G^T + mu tr(G) I,
// the trace over the in-plane components. Axisymmetric (x = r): B gains the hoop row
// (N_a / r, 0), carried as a third gradient component h_a = N_a / r, which adds lambda h_a g_b
// to row r, lambda g_a h_b to column r and (lambda + 2 mu) h_a h_b to (r, r).
struct ElasticMaterial {
  double lambda = 0, mu = 0;
};

// G += w ga gb^T over the E components of the gradients (the space's, or 2 and the hoop term).
template <int E>
FEM_HOST_DEVICE inline void add_pair(double w, const double* ga, const double* gb, double* G) {
  for (int i = 0; i < E; ++i) {
    const double wa = w * ga[i];
    for (int j = 0; j < E; ++j) G[i * E + j] += wa * gb[j];
  }
}

// Conduction's pair term: S += w ga . gb over the space's components; K_ab = k S.
template <int Dim>
FEM_HOST_DEVICE inline void add_dot_pair(double w, const double* ga, const double* gb, double* S) {
  double s = 0;
  for (int i = 0; i < Dim; ++i) s += ga[i] * gb[i];
  *S += w * s;
}

// The elastic Dim x Dim block K_ab (row stride `k_stride`) from a pair's G (E x E, row stride
// `g_stride`; E > Dim: axisymmetric, the hoop term last).
template <int Dim, int E>
FEM_HOST_DEVICE inline void pair_block(const ElasticMaterial& m, const double* G, int g_stride, double* K,
                                       int k_stride) {
  double trace = 0;
  for (int i = 0; i < Dim; ++i) trace += G[i * g_stride + i];
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) {
      double kij = m.lambda * G[i * g_stride + j] + m.mu * G[j * g_stride + i] + (i == j ? m.mu * trace : 0.0);
      if constexpr (E > Dim) {
        if (i == 0) kij += m.lambda * G[2 * g_stride + j];
        if (j == 0) kij += m.lambda * G[i * g_stride + 2];
        if (i == 0 && j == 0) kij += (m.lambda + 2 * m.mu) * G[2 * g_stride + 2];
      }
      K[i * k_stride + j] = kij;
    }
}

}  // namespace fem::element_stiffness

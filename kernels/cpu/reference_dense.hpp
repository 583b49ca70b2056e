#pragma once
// Textbook loops for the dense operations: the truth the tests compare every back-end with.
// The OpenMP back-end reuses the tile solvers (POTRF, TRSM on a diagonal tile), parallel over
// the independent right-hand sides.

#include "kernels/cpu/strided_view.hpp"
#include "kernels/dense_backend.hpp"

#include <algorithm>
#include <cmath>

namespace fem::kernels::cpu {

// C := alpha * A * B + beta * C on the part of C that `fill` names (A, B already op-applied).
template <class T>
void reference_gemm(T alpha, StridedView<const T> a, StridedView<const T> b, T beta,
                    StridedView<T> c, Fill fill) {
  for (index_t i = 0; i < c.rows; ++i) {
    const index_t j_end = fill == Fill::lower ? std::min(i + 1, c.cols) : c.cols;
    for (index_t j = 0; j < j_end; ++j) {
      T sum = 0;
      for (index_t k = 0; k < a.cols; ++k) sum += a(i, k) * b(k, j);
      c(i, j) = beta == T(0) ? alpha * sum : alpha * sum + beta * c(i, j);
    }
  }
}

// Lower Cholesky in place (dot-product form); returns the first column with a pivot that is
// not positive, or -1.
template <class T>
index_t reference_potrf(StridedView<T> a) {
  for (index_t j = 0; j < a.rows; ++j) {
    T pivot = a(j, j);
    for (index_t k = 0; k < j; ++k) pivot -= a(j, k) * a(j, k);
    if (!(pivot > T(0))) return j;
    a(j, j) = std::sqrt(pivot);
    for (index_t i = j + 1; i < a.rows; ++i) {
      T sum = a(i, j);
      for (index_t k = 0; k < j; ++k) sum -= a(i, k) * a(j, k);
      a(i, j) = sum / a(j, j);
    }
  }
  return -1;
}

// B := op(L)^-1 B (left) or B op(L)^-1 (right). The right-hand solve is the left one on Bᵀ with
// op(L)ᵀ, so each column of the (possibly transposed) B is an independent substitution.
template <class T>
void reference_trsm(Side side, Op op_l, StridedView<const T> l, StridedView<T> b, bool parallel) {
  if (side == Side::right) {
    b = b.transposed();
    op_l = op_l == Op::none ? Op::transpose : Op::none;
  }
  const auto tri = l.with_op(op_l);  // lower when op_l == none, upper otherwise
  const bool lower = op_l == Op::none;
  const index_t n = tri.rows;
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t j = 0; j < b.cols; ++j) {
    for (index_t step = 0; step < n; ++step) {
      const index_t i = lower ? step : n - 1 - step;
      const index_t k_begin = lower ? 0 : i + 1, k_end = lower ? i : n;  // the solved unknowns
      T sum = b(i, j);
      for (index_t k = k_begin; k < k_end; ++k) sum -= tri(i, k) * b(k, j);
      b(i, j) = sum / tri(i, i);
    }
  }
}

}  // namespace fem::kernels::cpu

#pragma once
// cuBLAS's SYRK and GEMM under one name for double and float, and the row-major band seen by the
// column-major cuBLAS: a row-major lower tile is a column-major upper one with the same leading
// dimension, and a row-major n x k panel P is the column-major k x n matrix Pᵀ. The updates of
// the blocked band Cholesky, in those terms.
#include <cublas_v2.h>

namespace fem::kernels::cuda {

inline cublasStatus_t cublas_syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                                  const double* alpha, const double* a, int lda, const double* beta, double* c,
                                  int ldc) {
  return cublasDsyrk(h, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
inline cublasStatus_t cublas_syrk(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,
                                  const float* alpha, const float* a, int lda, const float* beta, float* c, int ldc) {
  return cublasSsyrk(h, uplo, trans, n, k, alpha, a, lda, beta, c, ldc);
}
inline cublasStatus_t cublas_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                  const double* alpha, const double* a, int lda, const double* b, int ldb,
                                  const double* beta, double* c, int ldc) {
  return cublasDgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline cublasStatus_t cublas_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                  const float* alpha, const float* a, int lda, const float* b, int ldb,
                                  const float* beta, float* c, int ldc) {
  return cublasSgemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

inline cublasStatus_t cublas_trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                                  cublasOperation_t trans, int m, int n, const double* alpha, const double* a, int lda,
                                  double* b, int ldb) {
  return cublasDtrsm(h, side, uplo, trans, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b, ldb);
}
inline cublasStatus_t cublas_trsm(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                                  cublasOperation_t trans, int m, int n, const float* alpha, const float* a, int lda,
                                  float* b, int ldb) {
  return cublasStrsm(h, side, uplo, trans, CUBLAS_DIAG_NON_UNIT, m, n, alpha, a, lda, b, ldb);
}

// Lower triangle of C (n x n row-major) -= A Aᵀ, A n x k row-major.
template <class T>
cublasStatus_t syrk(cublasHandle_t h, int n, int k, const T* a, T* c, int ld) {
  const T minus = -1, one = 1;
  return cublas_syrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, &minus, a, ld, &one, c, ld);
}

// C (m x n row-major) -= A Bᵀ, A m x k and B n x k row-major.
template <class T>
cublasStatus_t gemm_nt(cublasHandle_t h, int m, int n, int k, const T* a, const T* b, T* c, int ld) {
  const T minus = -1, one = 1;
  return cublas_gemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &minus, b, ld, a, ld, &one, c, ld);
}

// B (m x n row-major) := B L⁻ᵀ, L n x n lower triangular row-major (the rows under a factored
// diagonal block solved).
template <class T>
cublasStatus_t trsm_lower_t(cublasHandle_t h, int m, int n, const T* l, T* b, int ld) {
  const T one = 1;
  return cublas_trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, m, &one, l, ld, b, ld);
}

}  // namespace fem::kernels::cuda

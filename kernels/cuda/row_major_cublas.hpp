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

}  // namespace fem::kernels::cuda

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

inline cublasStatus_t cublas_gemm_strided_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                  int n, int k, const double* alpha, const double* a, int lda,
                                                  long long stride_a, const double* b, int ldb, long long stride_b,
                                                  const double* beta, double* c, int ldc, long long stride_c, int count) {
  return cublasDgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
                                   count);
}
inline cublasStatus_t cublas_gemm_strided_batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                  int n, int k, const float* alpha, const float* a, int lda,
                                                  long long stride_a, const float* b, int ldb, long long stride_b,
                                                  const float* beta, float* c, int ldc, long long stride_c, int count) {
  return cublasSgemmStridedBatched(h, ta, tb, m, n, k, alpha, a, lda, stride_a, b, ldb, stride_b, beta, c, ldc, stride_c,
                                   count);
}

// S_i := X_i X_iᵀ for the `count` consecutive blocks X_i of n rows of X (k entries each, row-major,
// leading dimension ld): S_i is n x n (symmetric, so either order), at s + i * square_stride with
// leading dimension lds.
template <class T>
cublasStatus_t block_squares(cublasHandle_t h, int n, int k, const T* x, int ld, T* s, int lds, long long square_stride,
                             int count) {
  const T one = 1, zero = 0;
  const long long stride_x = static_cast<long long>(n) * ld;
  return cublas_gemm_strided_batched(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, k, &one, x, ld, stride_x, x, ld, stride_x, &zero, s,
                                     lds, square_stride, count);
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

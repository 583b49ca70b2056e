#pragma once
// The row-major band seen by the column-major cuBLAS: a row-major lower tile is a column-major
// upper one with the same leading dimension, and a row-major n x k panel P is the column-major
// k x n matrix Pᵀ. The updates of the blocked band Cholesky, in those terms.
#include <cublas_v2.h>

namespace fem::band::cuda {

// Lower triangle of C (n x n row-major) -= A Aᵀ, A n x k row-major.
inline cublasStatus_t syrk(cublasHandle_t h, int n, int k, const double* a, double* c, int ld) {
  const double minus = -1, one = 1;
  return cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, &minus, a, ld, &one, c, ld);
}
inline cublasStatus_t syrk(cublasHandle_t h, int n, int k, const float* a, float* c, int ld) {
  const float minus = -1, one = 1;
  return cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, &minus, a, ld, &one, c, ld);
}

// C (m x n row-major) -= A Bᵀ, A m x k and B n x k row-major.
inline cublasStatus_t gemm_nt(cublasHandle_t h, int m, int n, int k, const double* a, const double* b, double* c,
                              int ld) {
  const double minus = -1, one = 1;
  return cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &minus, b, ld, a, ld, &one, c, ld);
}
inline cublasStatus_t gemm_nt(cublasHandle_t h, int m, int n, int k, const float* a, const float* b, float* c,
                              int ld) {
  const float minus = -1, one = 1;
  return cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &minus, b, ld, a, ld, &one, c, ld);
}

}  // namespace fem::band::cuda

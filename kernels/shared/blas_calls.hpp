#pragma once
// The host BLAS and LAPACK calls of the BLAS back-end and the band solvers, one name for both precisions
// (row-major, lower triangles): OpenBLAS's dsyrk/dgemm/dtrsm/dtrmm/dtbsv and LAPACK's
// dpotrf/dtrtri and their single-precision twins. Include only where OpenBLAS's headers are on the include path.
#include <cblas.h>
#include <lapacke.h>

#include <stdexcept>
#include <string>

namespace fem::kernels::blas {

inline void syrk(int n, int k, double alpha, const double* a, int lda, double beta, double* c, int ldc) {
  cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, k, alpha, a, lda, beta, c, ldc);
}
inline void syrk(int n, int k, float alpha, const float* a, int lda, float beta, float* c, int ldc) {
  cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, k, alpha, a, lda, beta, c, ldc);
}
inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, double alpha, const double* a, int lda,
                 const double* b, int ldb, double beta, double* c, int ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, float alpha, const float* a, int lda,
                 const float* b, int ldb, float beta, float* c, int ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
// LAPACK's POTRF info as the column whose pivot is not positive, or -1; an invalid argument
// is a bug of ours, not of the matrix.
inline int failed_pivot(lapack_int info) {
  if (info < 0) throw std::logic_error("LAPACKE potrf: argument " + std::to_string(-info) + " is invalid");
  return info > 0 ? static_cast<int>(info) - 1 : -1;
}
// A row-major lower triangle is LAPACK's column-major upper one: no transposed copy. Returns
// the column whose pivot is not positive, or -1.
inline int potrf_lower(int n, double* a, int lda) { return failed_pivot(LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, a, lda)); }
inline int potrf_lower(int n, float* a, int lda) { return failed_pivot(LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', n, a, lda)); }
// The inverse of a lower triangle in place (LAPACK's TRTRI on the column-major upper one); the
// triangle is a POTRF factor, whose diagonal is positive.
inline void trtri_lower(int n, double* a, int lda) {
  if (failed_pivot(LAPACKE_dtrtri_work(LAPACK_COL_MAJOR, 'U', 'N', n, a, lda)) >= 0)
    throw std::logic_error("LAPACKE trtri: a zero on the diagonal of a Cholesky factor");
}
inline void trtri_lower(int n, float* a, int lda) {
  if (failed_pivot(LAPACKE_strtri_work(LAPACK_COL_MAJOR, 'U', 'N', n, a, lda)) >= 0)
    throw std::logic_error("LAPACKE trtri: a zero on the diagonal of a Cholesky factor");
}
// B := op(L) B (CblasLeft) or B op(L) (CblasRight), L lower triangular.
inline void trmm(CBLAS_SIDE side, CBLAS_TRANSPOSE tl, int m, int n, const double* l, int ldl, double* b, int ldb) {
  cblas_dtrmm(CblasRowMajor, side, CblasLower, tl, CblasNonUnit, m, n, 1.0, l, ldl, b, ldb);
}
inline void trmm(CBLAS_SIDE side, CBLAS_TRANSPOSE tl, int m, int n, const float* l, int ldl, float* b, int ldb) {
  cblas_strmm(CblasRowMajor, side, CblasLower, tl, CblasNonUnit, m, n, 1.0f, l, ldl, b, ldb);
}
inline void trsm(CBLAS_SIDE side, CBLAS_TRANSPOSE tl, int m, int n, const double* l, int ldl, double* b, int ldb) {
  cblas_dtrsm(CblasRowMajor, side, CblasLower, tl, CblasNonUnit, m, n, 1.0, l, ldl, b, ldb);
}
inline void trsm(CBLAS_SIDE side, CBLAS_TRANSPOSE tl, int m, int n, const float* l, int ldl, float* b, int ldb) {
  cblas_strsm(CblasRowMajor, side, CblasLower, tl, CblasNonUnit, m, n, 1.0f, l, ldl, b, ldb);
}

// Solves op(U) x = x for the upper band U in LAPACK's column-major band storage (kd
// superdiagonals, column j's diagonal at ab[kd + j * ldab]), as DTBSV.
inline void tbsv(CBLAS_TRANSPOSE tu, int n, int kd, const double* ab, int ldab, double* x) {
  cblas_dtbsv(CblasColMajor, CblasUpper, tu, CblasNonUnit, n, kd, ab, ldab, x, 1);
}
inline void tbsv(CBLAS_TRANSPOSE tu, int n, int kd, const float* ab, int ldab, float* x) {
  cblas_stbsv(CblasColMajor, CblasUpper, tu, CblasNonUnit, n, kd, ab, ldab, x, 1);
}

// While alive, each BLAS call runs on one thread (the previous count is restored after): for
// callers whose parallelism is their own, such as OpenMP tasks that each call BLAS.
class OneBlasThreadPerCall {
 public:
  OneBlasThreadPerCall() : previous_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
  ~OneBlasThreadPerCall() { openblas_set_num_threads(previous_); }
  OneBlasThreadPerCall(const OneBlasThreadPerCall&) = delete;
  OneBlasThreadPerCall& operator=(const OneBlasThreadPerCall&) = delete;

 private:
  int previous_;
};

}  // namespace fem::kernels::blas

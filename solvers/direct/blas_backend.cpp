#include "solvers/direct/blas_backend.hpp"

#include <cblas.h>
#include <lapacke.h>

#include <stdexcept>
#include <string>

namespace fem::band {

using kernels::DeviceMatrix;
using kernels::Fill;
using kernels::index_t;
using kernels::Op;
using kernels::Side;

namespace {

template <class T>
T* data(const DeviceMatrix<T>& m) {
  return static_cast<T*>(m.storage->handle()) + m.offset;
}

CBLAS_TRANSPOSE trans(Op op) { return op == Op::none ? CblasNoTrans : CblasTrans; }

int as_int(index_t v) {
  if (v > index_t{0x7fffffff}) throw std::invalid_argument("BLAS back-end: dimension " + std::to_string(v) + " exceeds 32 bits");
  return static_cast<int>(v);
}

// Only the lower triangle of C := alpha A Aᵀ + beta C is masked in this project (SYRK).
template <class T>
void require_syrk(Op op_a, Op op_b, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b) {
  if (op_a != Op::none || op_b != Op::transpose || a.storage != b.storage || a.offset != b.offset ||
      a.rows != b.rows || a.cols != b.cols || a.ld != b.ld)
    throw std::logic_error("BLAS back-end: a lower-triangle product must be A Aᵀ (SYRK)");
}

}  // namespace

std::string BlasBackend::description() const {
  return std::string(openblas_get_config()) + " (" + openblas_get_corename() + "), " +
         std::to_string(openblas_get_num_threads()) + " threads a call (one inside the band tasks)";
}

void BlasBackend::gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                              const DeviceMatrix<double>& b, double beta, const DeviceMatrix<double>& c, Fill fill) {
  const int k = as_int(a.cols_of(op_a));
  if (fill == Fill::lower) {
    require_syrk(op_a, op_b, a, b);
    cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, as_int(c.rows), k, alpha, data(a), as_int(a.ld), beta,
                data(c), as_int(c.ld));
  } else {
    cblas_dgemm(CblasRowMajor, trans(op_a), trans(op_b), as_int(c.rows), as_int(c.cols), k, alpha, data(a),
                as_int(a.ld), data(b), as_int(b.ld), beta, data(c), as_int(c.ld));
  }
}

void BlasBackend::gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                              const DeviceMatrix<float>& b, float beta, const DeviceMatrix<float>& c, Fill fill) {
  const int k = as_int(a.cols_of(op_a));
  if (fill == Fill::lower) {
    require_syrk(op_a, op_b, a, b);
    cblas_ssyrk(CblasRowMajor, CblasLower, CblasNoTrans, as_int(c.rows), k, alpha, data(a), as_int(a.ld), beta,
                data(c), as_int(c.ld));
  } else {
    cblas_sgemm(CblasRowMajor, trans(op_a), trans(op_b), as_int(c.rows), as_int(c.cols), k, alpha, data(a),
                as_int(a.ld), data(b), as_int(b.ld), beta, data(c), as_int(c.ld));
  }
}

// A row-major lower triangle is LAPACK's column-major upper one: no transposed copy.
index_t BlasBackend::potrf_tile(const DeviceMatrix<double>& a) {
  const lapack_int info = LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', as_int(a.rows), data(a), as_int(a.ld));
  if (info < 0) throw std::logic_error("LAPACKE_dpotrf: argument " + std::to_string(-info) + " is invalid");
  return info > 0 ? info - 1 : -1;
}

index_t BlasBackend::potrf_tile(const DeviceMatrix<float>& a) {
  const lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', as_int(a.rows), data(a), as_int(a.ld));
  if (info < 0) throw std::logic_error("LAPACKE_spotrf: argument " + std::to_string(-info) + " is invalid");
  return info > 0 ? info - 1 : -1;
}

void BlasBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l, const DeviceMatrix<double>& b) {
  cblas_dtrsm(CblasRowMajor, side == Side::left ? CblasLeft : CblasRight, CblasLower, trans(op_l), CblasNonUnit,
              as_int(b.rows), as_int(b.cols), 1.0, data(l), as_int(l.ld), data(b), as_int(b.ld));
}

void BlasBackend::trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l, const DeviceMatrix<float>& b) {
  cblas_strsm(CblasRowMajor, side == Side::left ? CblasLeft : CblasRight, CblasLower, trans(op_l), CblasNonUnit,
              as_int(b.rows), as_int(b.cols), 1.0f, data(l), as_int(l.ld), data(b), as_int(b.ld));
}

OneBlasThreadPerCall::OneBlasThreadPerCall() : previous_(openblas_get_num_threads()) { openblas_set_num_threads(1); }
OneBlasThreadPerCall::~OneBlasThreadPerCall() { openblas_set_num_threads(previous_); }

}  // namespace fem::band

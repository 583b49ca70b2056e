#include "kernels/cpu/blas_backend.hpp"

#include <stdexcept>
#include <string>

#include "kernels/shared/blas_calls.hpp"

namespace fem::kernels::cpu {

namespace {

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

template <class T>
void BlasBackend::gemm_any(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b, T beta,
                           const DeviceMatrix<T>& c, Fill fill) {
  const int k = as_int(a.cols_of(op_a));
  if (fill == Fill::lower) {
    require_syrk(op_a, op_b, a, b);
    blas::syrk(as_int(c.rows), k, alpha, a.data(), as_int(a.ld), beta, c.data(), as_int(c.ld));
  } else {
    blas::gemm(trans(op_a), trans(op_b), as_int(c.rows), as_int(c.cols), k, alpha, a.data(), as_int(a.ld), b.data(),
         as_int(b.ld), beta, c.data(), as_int(c.ld));
  }
}

template <class T>
index_t BlasBackend::potrf_any(const DeviceMatrix<T>& a) {
  return blas::potrf_lower(as_int(a.rows), a.data(), as_int(a.ld));
}

template <class T>
void BlasBackend::trsm_any(Side side, Op op_l, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b) {
  blas::trsm(side == Side::left ? CblasLeft : CblasRight, trans(op_l), as_int(b.rows), as_int(b.cols), l.data(), as_int(l.ld),
       b.data(), as_int(b.ld));
}

template void BlasBackend::gemm_any(Op, Op, double, const DeviceMatrix<double>&, const DeviceMatrix<double>&, double,
                                    const DeviceMatrix<double>&, Fill);
template void BlasBackend::gemm_any(Op, Op, float, const DeviceMatrix<float>&, const DeviceMatrix<float>&, float,
                                    const DeviceMatrix<float>&, Fill);
template index_t BlasBackend::potrf_any(const DeviceMatrix<double>&);
template index_t BlasBackend::potrf_any(const DeviceMatrix<float>&);
template void BlasBackend::trsm_any(Side, Op, const DeviceMatrix<double>&, const DeviceMatrix<double>&);
template void BlasBackend::trsm_any(Side, Op, const DeviceMatrix<float>&, const DeviceMatrix<float>&);

}  // namespace fem::kernels::cpu

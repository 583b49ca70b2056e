#include "bench/spmv/cusparse_reference.hpp"

#include <cuda_runtime.h>
#include <cusparse.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"

namespace fem::bench {
namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string("cuSPARSE: ") + what + ": " + cusparseGetErrorString(s));
}
using kernels::cuda::check;

}  // namespace

struct CusparseCsr::Impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  kernels::cuda::DeviceBuffer<int> row_ptr, col;
  kernels::cuda::DeviceBuffer<double> val;
  kernels::cuda::DeviceBuffer<char> buffer;
  std::int64_t rows = 0;
  cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_CSR_ALG1;
};

CusparseCsr::CusparseCsr(const CsrMatrix& a, Algorithm algorithm) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.rows = a.rows;
  m.algorithm = algorithm == Algorithm::Alg1 ? CUSPARSE_SPMV_CSR_ALG1 : CUSPARSE_SPMV_CSR_ALG2;
  m.row_ptr = kernels::cuda::DeviceBuffer<int>(std::vector<int>(a.row_ptr.begin(), a.row_ptr.end()));
  m.col = kernels::cuda::DeviceBuffer<int>(a.col);
  m.val = kernels::cuda::DeviceBuffer<double>(a.val);
  check(cusparseCreate(&m.handle), "cusparseCreate");
  check(cusparseCreateCsr(&m.matrix, a.rows, a.rows, a.nnz(), m.row_ptr.get(), m.col.get(), m.val.get(), CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "cusparseCreateCsr");
}

CusparseCsr::~CusparseCsr() {
  Impl& m = *impl_;
  if (m.x) cusparseDestroyDnVec(m.x);
  if (m.y) cusparseDestroyDnVec(m.y);
  cusparseDestroySpMat(m.matrix);
  cusparseDestroy(m.handle);
}

void CusparseCsr::apply(const double* x, double* y) {
  Impl& m = *impl_;
  const double one = 1.0, zero = 0.0;
  if (!m.x) {
    check(cusparseCreateDnVec(&m.x, m.rows, const_cast<double*>(x), CUDA_R_64F), "cusparseCreateDnVec");
    check(cusparseCreateDnVec(&m.y, m.rows, y, CUDA_R_64F), "cusparseCreateDnVec");
    std::size_t bytes = 0;
    check(cusparseSpMV_bufferSize(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.matrix, m.x, &zero, m.y,
                                  CUDA_R_64F, m.algorithm, &bytes),
          "cusparseSpMV_bufferSize");
    m.buffer = kernels::cuda::DeviceBuffer<char>(std::max<std::size_t>(bytes, 8));
  } else {
    check(cusparseDnVecSetValues(m.x, const_cast<double*>(x)), "cusparseDnVecSetValues");
    check(cusparseDnVecSetValues(m.y, y), "cusparseDnVecSetValues");
  }
  check(cusparseSpMV(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.matrix, m.x, &zero, m.y, CUDA_R_64F,
                     m.algorithm, m.buffer.get()),
        "cusparseSpMV");
}

}  // namespace fem::bench

#include "kernels/cuda/csr_block_product.hpp"

#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/blas_handle.hpp"
#include "kernels/cuda/device_buffer.hpp"

namespace fem::kernels::cuda {
namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE: ") + what + " failed: " + cusparseGetErrorString(s));
}

// A dense block as cuSPARSE describes it, released with its owner.
class DenseBlock {
 public:
  DenseBlock(std::int64_t rows, int count, std::int64_t ld, const double* values, cusparseOrder_t order) {
    check(cusparseCreateDnMat(&d_, rows, count, ld, const_cast<double*>(values), CUDA_R_64F, order),
          "cusparseCreateDnMat");
  }
  ~DenseBlock() { cusparseDestroyDnMat(d_); }
  DenseBlock(const DenseBlock&) = delete;
  DenseBlock& operator=(const DenseBlock&) = delete;
  operator cusparseDnMatDescr_t() const { return d_; }

 private:
  cusparseDnMatDescr_t d_ = nullptr;
};


}  // namespace

struct CsrBlockProduct::Impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  DeviceBuffer<int> row_ptr, col;
  DeviceBuffer<double> val;
  mutable DeviceBuffer<char> workspace;
  // The blocks' row-major copies: with the vectors interleaved, each nonzero of A reads its
  // column's values of all vectors at once, where a column-major block costs SpMM (ALG1) about a
  // pass over A per vector.
  BlasHandle blas;
  mutable DeviceBuffer<double> x_rows, y_rows;
  std::int64_t rows = 0;

  // Y = A X, X and Y as `order` and ld say.
  void multiply(const double* x, std::int64_t ld_x, double* y, std::int64_t ld_y, int count, cusparseOrder_t order,
                cusparseSpMMAlg_t algorithm) const {
    const DenseBlock in(rows, count, ld_x, x, order), out(rows, count, ld_y, y, order);
    const double one = 1.0, zero = 0.0;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    std::size_t bytes = 0;
    check(cusparseSpMM_bufferSize(handle, op, op, &one, matrix, in, &zero, out, CUDA_R_64F, algorithm, &bytes),
          "cusparseSpMM_bufferSize");
    if (!workspace.get() || bytes > workspace.size()) workspace = DeviceBuffer<char>(std::max<std::size_t>(bytes, 8));
    check(cusparseSpMM(handle, op, op, &one, matrix, in, &zero, out, CUDA_R_64F, algorithm, workspace.get()),
          "cusparseSpMM");
  }
};

CsrBlockProduct::CsrBlockProduct(const CsrMatrix& a) : impl_(std::make_unique<Impl>()) {
  if (a.nnz() > INT_MAX)
    throw std::invalid_argument("CsrBlockProduct: " + std::to_string(a.nnz()) +
                                " nonzeros exceed the 32-bit indices of cuSPARSE's CSR here");
  Impl& m = *impl_;
  m.rows = a.rows;
  m.row_ptr = DeviceBuffer<int>(std::vector<int>(a.row_ptr.begin(), a.row_ptr.end()));
  m.col = DeviceBuffer<int>(a.col.data(), a.col.size());
  m.val = DeviceBuffer<double>(a.val.data(), a.val.size());
  check(cusparseCreate(&m.handle), "cusparseCreate");
  check(cusparseCreateCsr(&m.matrix, a.rows, a.rows, a.nnz(), m.row_ptr.get(), m.col.get(), m.val.get(),
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
        "cusparseCreateCsr");
}

CsrBlockProduct::~CsrBlockProduct() {
  cusparseDestroySpMat(impl_->matrix);
  cusparseDestroy(impl_->handle);
}

void CsrBlockProduct::apply(const double* x, std::int64_t ld_x, double* y, std::int64_t ld_y, int count) const {
  if (count == 0) return;
  const Impl& m = *impl_;
  if (count == 1) return m.multiply(x, ld_x, y, ld_y, 1, CUSPARSE_ORDER_COL, CUSPARSE_SPMM_CSR_ALG1);
  // Transposed into row-major copies (cuBLAS geam, two passes over the vectors), multiplied
  // there, and transposed back.
  const auto values = static_cast<std::size_t>(m.rows) * count;
  if (m.x_rows.size() < values) {
    m.x_rows = DeviceBuffer<double>(values);
    m.y_rows = DeviceBuffer<double>(values);
  }
  const double one = 1.0, zero = 0.0;
  const int n = static_cast<int>(m.rows);
  check(cublasDgeam(m.blas, CUBLAS_OP_T, CUBLAS_OP_N, count, n, &one, x, static_cast<int>(ld_x), &zero, m.x_rows.get(),
                    count, m.x_rows.get(), count),
        "cublasDgeam (the vectors to rows)");
  m.multiply(m.x_rows.get(), count, m.y_rows.get(), count, count, CUSPARSE_ORDER_ROW, CUSPARSE_SPMM_CSR_ALG2);
  check(cublasDgeam(m.blas, CUBLAS_OP_T, CUBLAS_OP_N, n, count, &one, m.y_rows.get(), count, &zero, y,
                    static_cast<int>(ld_y), y, static_cast<int>(ld_y)),
        "cublasDgeam (the products back to vectors)");
}

std::size_t CsrBlockProduct::device_bytes() const {
  return impl_->row_ptr.bytes() + impl_->col.bytes() + impl_->val.bytes() + impl_->x_rows.bytes() + impl_->y_rows.bytes();
}

}  // namespace fem::kernels::cuda

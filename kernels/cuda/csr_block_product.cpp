#include "kernels/cuda/csr_block_product.hpp"

#include <cusparse.h>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/device_buffer.hpp"

namespace fem::kernels::cuda {
namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuSPARSE: ") + what + " failed: " + cusparseGetErrorString(s));
}

// A column-major dense block as cuSPARSE describes it, released with its owner.
class DenseBlock {
 public:
  DenseBlock(std::int64_t rows, int count, std::int64_t ld, const double* values) {
    check(cusparseCreateDnMat(&d_, rows, count, ld, const_cast<double*>(values), CUDA_R_64F, CUSPARSE_ORDER_COL),
          "cusparseCreateDnMat");
  }
  ~DenseBlock() { cusparseDestroyDnMat(d_); }
  DenseBlock(const DenseBlock&) = delete;
  DenseBlock& operator=(const DenseBlock&) = delete;
  operator cusparseDnMatDescr_t() const { return d_; }

 private:
  cusparseDnMatDescr_t d_ = nullptr;
};

constexpr cusparseSpMMAlg_t kAlgorithm = CUSPARSE_SPMM_CSR_ALG1;  // the one for column-major blocks

}  // namespace

struct CsrBlockProduct::Impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t matrix = nullptr;
  DeviceBuffer<int> row_ptr, col;
  DeviceBuffer<double> val;
  mutable DeviceBuffer<char> workspace;
  std::int64_t rows = 0;
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
  const DenseBlock in(m.rows, count, ld_x, x), out(m.rows, count, ld_y, y);
  const double one = 1.0, zero = 0.0;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  std::size_t bytes = 0;
  check(cusparseSpMM_bufferSize(m.handle, op, op, &one, m.matrix, in, &zero, out, CUDA_R_64F, kAlgorithm, &bytes),
        "cusparseSpMM_bufferSize");
  if (!m.workspace.get() || bytes > m.workspace.size()) m.workspace = DeviceBuffer<char>(std::max<std::size_t>(bytes, 8));
  check(cusparseSpMM(m.handle, op, op, &one, m.matrix, in, &zero, out, CUDA_R_64F, kAlgorithm, m.workspace.get()),
        "cusparseSpMM");
}

std::size_t CsrBlockProduct::device_bytes() const {
  return impl_->row_ptr.bytes() + impl_->col.bytes() + impl_->val.bytes();
}

}  // namespace fem::kernels::cuda

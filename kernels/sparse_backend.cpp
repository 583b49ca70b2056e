// SparseBackend's default multi-vector operations, for back-ends without their own, and the
// check of a view's matrix.
#include "kernels/sparse_backend.hpp"

#include <map>
#include <stdexcept>

#include "kernels/dense_backend.hpp"

namespace fem::kernels {

std::unique_ptr<SparseVector> SparseBackend::view(const DeviceMatrix<double>&, index_t) const {
  throw std::logic_error("the " + name() + " sparse back-end makes no views of dense matrices");
}

std::unique_ptr<SparseMatrix> SparseBackend::rows_matrix(const CsrMatrix& a) const {
  std::map<std::string, double> figures;
  return matrix(a, "auto", figures);
}

void SparseBackend::spmv_rows(const SparseMatrix& a, const DeviceMatrix<double>& x, const DeviceMatrix<double>& y) const {
  if (x.rows != y.rows)
    throw std::invalid_argument("spmv_rows: " + std::to_string(x.rows) + " vectors in, " + std::to_string(y.rows) + " out");
  for (index_t j = 0; j < x.rows; ++j) spmv(a, *view(x, j), *view(y, j));
}

double* view_start(const DeviceMatrix<double>& rows, index_t row, const std::string& device,
                   bool (*in_memory_of_device)(const DenseBackend&)) {
  const DenseBackend* owner = rows.storage ? rows.storage->owner() : nullptr;
  if (!owner || !in_memory_of_device(*owner))
    throw std::invalid_argument("a " + device + " vector view of a matrix " +
                                (owner ? "of the dense back-end '" + owner->name() + "'" : std::string("without storage")) +
                                ": views need a dense back-end of the same device");
  if (row < 0 || row >= rows.rows)
    throw std::invalid_argument("a vector view of row " + std::to_string(row) + " of a matrix of " +
                                std::to_string(rows.rows) + " rows");
  return rows.data() + row * rows.ld;
}

}  // namespace fem::kernels

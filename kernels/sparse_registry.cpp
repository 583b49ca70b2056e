// make_sparse_backend: the sparse side of the back-end table (backend_table.cpp).
#include <map>
#include <stdexcept>

#include "kernels/compute_backend.hpp"
#include "kernels/dense_backend.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::kernels {

const std::vector<std::string>& sparse_backend_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const ComputeBackend& b : compute_backends()) all.push_back(b.device);
    return all;
  }();
  return names;
}

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

double* view_start(const DeviceMatrix<double>& rows, index_t row, const std::string& device) {
  const DenseBackend* owner = rows.storage ? rows.storage->owner() : nullptr;
  const ComputeBackend* home = owner ? find_dense_owner(owner->name()) : nullptr;
  if (!home || home->device != device)
    throw std::invalid_argument("a " + device + " vector view of a matrix " +
                                (owner ? "of the dense back-end '" + owner->name() + "'" : std::string("without storage")) +
                                ": views need a dense back-end of the same device");
  if (row < 0 || row >= rows.rows)
    throw std::invalid_argument("a vector view of row " + std::to_string(row) + " of a matrix of " +
                                std::to_string(rows.rows) + " rows");
  return rows.data() + row * rows.ld;
}

std::unique_ptr<SparseBackend> make_sparse_backend(const std::string& device) {
  const ComputeBackend* backend = find_compute_backend(device);
  if (!backend) {
    std::string known;
    for (const auto& n : sparse_backend_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown sparse back-end '" + device + "' (known: " + known + ")");
  }
  if (!backend->built) throw BackendUnavailable(unavailable_reason(*backend));
  return backend->factories.make_sparse();
}

}  // namespace fem::kernels

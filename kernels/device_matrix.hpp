#pragma once
// A dense row-major matrix (or a block of one) living in memory owned by one dense back-end.
// The back-ends (serial, OpenMP, CUDA, OpenCL) all compute on DeviceMatrix values, so a solver
// keeps its data where the back-end computes and moves it only through upload/download.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace fem::kernels {

using index_t = std::int64_t;

enum class Op { none, transpose };  // op(X) = X or Xᵀ
enum class Side { left, right };    // op(L) multiplies from the left or from the right

class DenseBackend;

// Memory owned by one back-end: host memory, a CUDA allocation or an OpenCL buffer.
class DeviceStorage {
public:
  DeviceStorage(const DenseBackend* owner, std::size_t bytes) : owner_(owner), bytes_(bytes) {}
  virtual ~DeviceStorage() = default;
  DeviceStorage(const DeviceStorage&) = delete;
  DeviceStorage& operator=(const DeviceStorage&) = delete;

  // Host pointer, CUDA device pointer or cl_mem, as the owning back-end understands it.
  virtual void* handle() const = 0;
  const DenseBackend* owner() const { return owner_; }
  std::size_t bytes() const { return bytes_; }

private:
  const DenseBackend* owner_;
  std::size_t bytes_;
};

// Element (i, j) lives at storage element offset + i * ld + j.
template <class T>
struct DeviceMatrix {
  std::shared_ptr<DeviceStorage> storage;
  index_t offset = 0;
  index_t rows = 0;
  index_t cols = 0;
  index_t ld = 0;

  // The first element where the back-end holds it: a host or CUDA device pointer (not for
  // OpenCL, whose handle is a cl_mem).
  T* data() const { return static_cast<T*>(storage->handle()) + offset; }

  index_t rows_of(Op op) const { return op == Op::none ? rows : cols; }
  index_t cols_of(Op op) const { return op == Op::none ? cols : rows; }

  // The nrows x ncols block whose top-left element is (row, col); shares the storage.
  DeviceMatrix block(index_t row, index_t col, index_t nrows, index_t ncols) const {
    if (row < 0 || col < 0 || nrows < 0 || ncols < 0 || row + nrows > rows || col + ncols > cols)
      throw std::out_of_range("DeviceMatrix::block: block (" + std::to_string(row) + ", " +
                              std::to_string(col) + ") of size " + std::to_string(nrows) + " x " +
                              std::to_string(ncols) + " exceeds the " + std::to_string(rows) +
                              " x " + std::to_string(cols) + " matrix");
    return {storage, offset + row * ld + col, nrows, ncols, ld};
  }
};

// A factorisation met a pivot that is not positive: the matrix is not positive definite.
class NotPositiveDefinite : public std::runtime_error {
public:
  explicit NotPositiveDefinite(index_t column)
      : std::runtime_error("Cholesky factorisation: the pivot of column " + std::to_string(column) +
                           " is not positive (matrix not positive definite)"),
        column_(column) {}
  index_t column() const { return column_; }

private:
  index_t column_;
};

// The back-end asked for exists in this build but cannot run here (no GPU, no OpenCL platform).
class BackendUnavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

}  // namespace fem::kernels

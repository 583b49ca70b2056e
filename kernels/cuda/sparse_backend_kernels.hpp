#pragma once
// The kernels the CUDA sparse back-end adds for AMG's V-cycle (in sparse_vector_ops.cu): block
// matrices in single (the levels) or double precision (the Krylov operator) multiplied on double
// vectors, and the diagonal-scaled smoothing step. Plain C++: pointers are device pointers.
#include <cstddef>
#include <cstdint>

namespace fem::kernels::cuda {

// Device memory holding a copy of host bytes: the index and value arrays of a block matrix.
class DeviceBytes {
 public:
  DeviceBytes(const void* host, std::size_t bytes);
  // `bytes` uninitialised, for a kernel to fill.
  explicit DeviceBytes(std::size_t bytes);
  // A copy of device bytes; with `narrow`, the doubles of `device` as floats (half the bytes).
  DeviceBytes(const DeviceBytes& device, bool narrow);
  ~DeviceBytes();
  DeviceBytes(DeviceBytes&& o) noexcept : data_(o.data_), bytes_(o.bytes_) { o.data_ = nullptr, o.bytes_ = 0; }
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;
  const void* data() const { return data_; }
  void* data() { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// A block matrix on the device: block_rows rows of row_block x col_block blocks (row-major) of
// float or double values, `lanes` threads per block row (a power of two, 1..32).
struct DeviceBlockMatrix {
  int row_block = 1, col_block = 1, lanes = 1;
  bool double_values = false;
  std::int64_t block_rows = 0;
  const std::int64_t* row_ptr = nullptr;
  const std::int32_t* col = nullptr;
  const void* val = nullptr;  // float or double
};

// y = alpha A x + beta y (y is not read when beta = 0). Blocks of 1..8 rows and columns.
void block_spmv(const DeviceBlockMatrix& a, double alpha, const double* x, double beta, double* y);
// d = a (s .* r) + b d; x = c x + d (d is not read when b = 0, x not when c = 0).
void diagonal_step(std::int64_t n, double a, const double* s, const double* r, double b, double* d, double c,
                   double* x);

}  // namespace fem::kernels::cuda

#pragma once
// The kernels the CUDA sparse back-end adds for AMG's V-cycle (in sparse_vector_ops.cu): block
// matrices in single precision multiplied on double vectors, and the diagonal-scaled smoothing
// step. Plain C++: pointers are device pointers.
#include <cstddef>
#include <cstdint>

namespace fem::kernels::cuda {

// A block matrix on the device: block_rows rows of row_block x col_block float blocks
// (row-major), `lanes` threads per block row (a power of two, 1..32).
struct DeviceBlockMatrix {
  int row_block = 1, col_block = 1, lanes = 1;
  std::int64_t block_rows = 0;
  const std::int64_t* row_ptr = nullptr;
  const std::int32_t* col = nullptr;
  const float* val = nullptr;
};

// y = alpha A x + beta y (y is not read when beta = 0). Blocks of 1..8 rows and columns.
void block_spmv(const DeviceBlockMatrix& a, double alpha, const double* x, double beta, double* y);
// d = a (s .* r) + b d; x = c x + d (d is not read when b = 0, x not when c = 0).
void diagonal_step(std::int64_t n, double a, const double* s, const double* r, double b, double* d, double c,
                   double* x);

}  // namespace fem::kernels::cuda

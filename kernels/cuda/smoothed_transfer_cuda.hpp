#pragma once
// The transfer operators of an AMG level made on a CUDA device (smoothed_transfer.cu): A T from
// the device's double A and the host's tentative prolongator T, then P = T - omega D^-1 A T in
// its place and R = P^T. Plain C++: the CUDA calls are in the .cu file.
#include <cstdint>
#include <memory>

#include "kernels/cuda/sparse_backend_kernels.hpp"

namespace fem::kernels::cuda {

// A double block matrix in device memory that owns its arrays (`form` points into them; its
// `lanes` are left for the owner to choose).
struct DeviceBlocks {
  DeviceBytes row_ptr, col, val;
  DeviceBlockMatrix form;
};

// T on the device: each fine block row's one block column (-1 where the node is in no aggregate)
// and its B x K block (row-major; zeros where there is none).
struct DeviceTentative {
  int row_block = 1, col_block = 1;
  std::int64_t block_rows = 0, block_cols = 0;
  DeviceBytes col, val;
};

// A T, or null where the shapes have no kernel here or a row of A holds more blocks than the
// kernel's row buffer (256): the host makes it then.
std::unique_ptr<DeviceBlocks> tentative_product(const DeviceBlockMatrix& a, const DeviceTentative& t);

// A T made into P = T - omega D^-1 (A T) in place (`inv_diag` on the device, a value per
// equation), each entry as the host's damping makes it.
void damp(DeviceBlocks& at, const DeviceTentative& t, const double* inv_diag, double omega);

// R = P^T, each row's fine columns in ascending order.
std::unique_ptr<DeviceBlocks> transpose(const DeviceBlocks& p, std::int64_t block_cols);

}  // namespace fem::kernels::cuda

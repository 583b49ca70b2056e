#pragma once
// The CUDA sparse back-end's block matrix for block_spmv: its arrays on the device, copied from
// the host, narrowed from a double copy there, or made there (smoothed_transfer_cuda.hpp).
#include <cstdint>
#include <span>
#include <string>

#include "kernels/block_matrix.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/smoothed_transfer_cuda.hpp"
#include "kernels/cuda/sparse_backend_kernels.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::kernels::cuda {

class CudaBlockMatrix final : public SparseMatrix {
 public:
  template <class Value>
  explicit CudaBlockMatrix(const BlockMatrix<Value>& a)
      : row_ptr_(a.row_ptr.data(), a.row_ptr.size() * sizeof(std::int64_t)),
        col_(a.col.data(), a.col.size() * sizeof(std::int32_t)),
        val_(a.val.data(), a.val.size() * sizeof(Value)) {
    form_.row_block = a.row_block;
    form_.col_block = a.col_block;
    form_.double_values = sizeof(Value) == sizeof(double);
    form_.block_rows = a.block_rows;
    point_form();
  }
  // Double blocks made on the device, taken over as they are.
  explicit CudaBlockMatrix(DeviceBlocks&& blocks)
      : row_ptr_(std::move(blocks.row_ptr)), col_(std::move(blocks.col)), val_(std::move(blocks.val)),
        form_(blocks.form) {
    point_form();
  }
  // The single-precision copy of a double matrix, made on the device.
  struct Narrowed {};
  CudaBlockMatrix(const CudaBlockMatrix& doubles, Narrowed)
      : row_ptr_(doubles.row_ptr_, false), col_(doubles.col_, false), val_(doubles.val_, true), form_(doubles.form_) {
    form_.double_values = false;
    point_form();
  }
  // The same of blocks made on the device, whose index arrays it takes over.
  CudaBlockMatrix(DeviceBlocks&& doubles, Narrowed)
      : row_ptr_(std::move(doubles.row_ptr)), col_(std::move(doubles.col)), val_(doubles.val, true),
        form_(doubles.form) {
    form_.double_values = false;
    point_form();
  }
  std::size_t device_bytes() const override { return row_ptr_.bytes() + col_.bytes() + val_.bytes(); }
  std::string setting() const override {
    return "block " + std::to_string(form_.row_block) + "x" + std::to_string(form_.col_block) +
           (form_.double_values ? " fp64" : " fp32") + "/t" + std::to_string(form_.lanes);
  }
  bool values_to_host(std::span<double> host) const override {
    if (!form_.double_values || host.size_bytes() != val_.bytes()) return false;
    copy_bytes_to_host(host.data(), val_.data(), val_.bytes());
    return true;
  }
  const DeviceBlockMatrix& form() const { return form_; }
  std::int64_t blocks() const { return static_cast<std::int64_t>(col_.bytes() / sizeof(std::int32_t)); }

 private:
  // The form's arrays are this matrix's own; its lanes follow from its blocks per row.
  void point_form() {
    form_.row_ptr = static_cast<const std::int64_t*>(row_ptr_.data());
    form_.col = static_cast<const std::int32_t*>(col_.data());
    form_.val = val_.data();
    form_.lanes = lanes_per_block_row(blocks(), form_.block_rows);
  }

  DeviceBytes row_ptr_, col_, val_;
  DeviceBlockMatrix form_;
};

}  // namespace fem::kernels::cuda

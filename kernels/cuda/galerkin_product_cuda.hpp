#pragma once
// AMG's Galerkin product P^T A P on a CUDA device (galerkin_product.cu), for a level whose A, P
// and R = P^T are double block matrices there (R's pattern is read, not its values). Only the
// blocks on and above the diagonal are made: the host mirrors them, as its own product does.
// Plain C++: the CUDA calls are in the .cu file.
#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/cuda/sparse_backend_kernels.hpp"

namespace fem::kernels::cuda {

class DeviceGalerkinProduct {
 public:
  // The pattern pass: each coarse row's blocks on and above its diagonal counted. A is symmetric,
  // its pattern too; R's rows hold their columns in ascending order.
  DeviceGalerkinProduct(const DeviceBlockMatrix& a, const DeviceBlockMatrix& p, const DeviceBlockMatrix& r);
  ~DeviceGalerkinProduct();
  DeviceGalerkinProduct(const DeviceGalerkinProduct&) = delete;
  DeviceGalerkinProduct& operator=(const DeviceGalerkinProduct&) = delete;

  // False where the block shapes have no kernel here or a coarse row reaches more fine rows or
  // coarse columns than the kernel's scratch holds: the host makes the product then.
  bool fits() const { return fits_; }
  // Where fits(): the upper rows' starts (coarse_rows + 1), as the host's BlockMatrix keeps them.
  const std::vector<std::int64_t>& row_ptr() const { return row_ptr_; }
  // The upper blocks' columns and values (row_ptr().back() blocks of K x K, K = P's block columns)
  // into host arrays. False, with nothing written, where the device lacks the memory for them.
  bool compute(std::int32_t* col, double* val) const;

 private:
  struct Inputs;
  std::unique_ptr<Inputs> inputs_;
  bool fits_ = false;
  std::vector<std::int64_t> row_ptr_;
};

}  // namespace fem::kernels::cuda

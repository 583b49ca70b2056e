#pragma once
// AMG's Galerkin product P^T A P on a CUDA device (galerkin_product.cu), for a level whose A and P
// are double block matrices there already and whose R = P^T is given by its pattern. Only the
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
  // its pattern too; `r_row_ptr` (coarse_rows + 1 entries) and `r_col` (ascending within each
  // row) are P^T's pattern on the host.
  DeviceGalerkinProduct(const DeviceBlockMatrix& a, const DeviceBlockMatrix& p, const std::int64_t* r_row_ptr,
                        const std::int32_t* r_col, std::int64_t coarse_rows);
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

#pragma once
// A CSR matrix on the device multiplied with many vectors at once by cuSPARSE's SpMM (the vectors
// the columns of a column-major block, with a leading dimension; multiplied as a row-major copy):
// the matrix is read once for all of them instead of once per vector. LOBPCG's products with its
// blocks use it. Plain C++: no CUDA header needed to use it.
#include <cstdint>
#include <memory>

#include "kernels/csr_matrix.hpp"

namespace fem::kernels::cuda {

class CsrBlockProduct {
 public:
  // Throws std::invalid_argument for more nonzeros than 32-bit indices hold, std::runtime_error
  // when the device refuses.
  explicit CsrBlockProduct(const CsrMatrix& a);
  ~CsrBlockProduct();
  CsrBlockProduct(const CsrBlockProduct&) = delete;
  CsrBlockProduct& operator=(const CsrBlockProduct&) = delete;

  // Y = A X for X and Y of `count` columns of A's size, column-major with leading dimensions
  // ld_x and ld_y (device pointers), on the default stream.
  void apply(const double* x, std::int64_t ld_x, double* y, std::int64_t ld_y, int count) const;
  std::size_t device_bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fem::kernels::cuda

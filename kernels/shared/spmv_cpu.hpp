#pragma once
// Sparse matrix-vector products on the host: the serial CSR reference every other kernel is
// checked against, and the OpenMP kernels the CPU solvers use.
#include <span>

#include "kernels/shared/sparse_formats.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem::kernels {

void spmv_serial(const CsrMatrix& a, std::span<const double> x, std::span<double> y);  // y = A x, one thread
void spmv_openmp(const CsrMatrix& a, std::span<const double> x, std::span<double> y);  // y = A x, rows over threads
void spmv_openmp(const BcsrMatrix& a, std::span<const double> x, std::span<double> y);  // block rows over threads

}  // namespace fem::kernels

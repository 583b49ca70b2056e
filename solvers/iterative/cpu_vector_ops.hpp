#pragma once
// The few vector kernels the CPU Krylov solvers need, OpenMP-parallel.
#include <span>

#include "kernels/csr_matrix.hpp"

namespace fem::cpu {

void spmv(const CsrMatrix& a, std::span<const double> x, std::span<double> y);  // y = A x
double dot(std::span<const double> x, std::span<const double> y);
void axpy(double alpha, std::span<const double> x, std::span<double> y);  // y += alpha x
void xpby(std::span<const double> x, double beta, std::span<double> y);   // y = x + beta y

}  // namespace fem::cpu

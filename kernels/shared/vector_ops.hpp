#pragma once
// The vector kernels of the Krylov methods on the host, OpenMP-parallel above a size where threads pay.
#include <cstdint>
#include <span>

#include "kernels/csr_matrix.hpp"

namespace fem::cpu {

// Below this many entries a parallel region costs more than it saves (and a busy machine makes
// waiting threads far worse).
inline constexpr std::int64_t kParallelFrom = 50000;

void spmv(const CsrMatrix& a, std::span<const double> x, std::span<double> y);  // y = A x
// Y = A X for a block of vectors of a.rows values one after another (column-major), in one pass
// over A for every 8 of them: a block costs about one product's matrix traffic.
void spmv_columns(const CsrMatrix& a, std::span<const double> x, std::span<double> y);
double dot(std::span<const double> x, std::span<const double> y);
void axpy(double alpha, std::span<const double> x, std::span<double> y);  // y += alpha x
// y = a x + b y (y is not read when b = 0: it may be unset)
void axpby(double a, std::span<const double> x, double b, std::span<double> y);

}  // namespace fem::cpu

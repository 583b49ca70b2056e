#pragma once
// The product of a block matrix (AMG's levels) with a vector on the host: the host sparse
// back-end's block_spmv and the AMG setup's products in double.
#include <span>

#include "kernels/block_matrix.hpp"

namespace fem::kernels {

// y = alpha A x + beta y over the blocks of A (OpenMP over block rows), accumulated in double;
// y is not read when beta = 0. Throws std::invalid_argument when the vectors do not fit A or its
// blocks exceed 8 x 8.
template <class Value>
void block_spmv(const BlockMatrix<Value>& a, double alpha, std::span<const double> x, double beta, std::span<double> y);

}  // namespace fem::kernels

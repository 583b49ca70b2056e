#pragma once
// The sparse back-end on the host: vectors in host memory, CSR products and vector steps over
// OpenMP threads (one thread below the size where threads pay).
#include <memory>
#include <span>

#include "kernels/block_matrix.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::kernels::cpu {

// The host back-end keeps a reference to the matrices it is handed: they must outlive it.
std::unique_ptr<SparseBackend> make_host_sparse_backend();

// y = alpha A x + beta y over the blocks of A (OpenMP over block rows), accumulated in double;
// y is not read when beta = 0. The host's block_spmv, and the AMG setup's products in double.
// Throws std::invalid_argument when the vectors do not fit A or its blocks exceed 8 x 8.
template <class Value>
void block_spmv(const BlockMatrix<Value>& a, double alpha, std::span<const double> x, double beta, std::span<double> y);

}  // namespace fem::kernels::cpu

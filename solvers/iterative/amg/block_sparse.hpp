#pragma once
// The AMG setup's block-sparse algebra (kernels/block_matrix.hpp: rectangular blocks). Working on
// blocks keeps the setup's products dense and small, and matches the block formats of the device
// kernels. The setup computes in double; the V-cycle multiplies with single-precision copies
// (half the bytes streamed; a preconditioner needs no more) on double vectors, on the back-end.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "kernels/block_matrix.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem::amg {

template <class Value>
using BlockMatrix = kernels::BlockMatrix<Value>;
using BlockSparse = BlockMatrix<double>;
using SingleBlockSparse = BlockMatrix<float>;

// The single-precision copy the V-cycle uses.
SingleBlockSparse to_single(const BlockSparse& a);

// Doubles first touched by the threads that fill them (a value per equation: tens of megabytes).
using Values = std::vector<double, kernels::UninitializedAllocator<double>>;

// The squared Frobenius norm of a block of `size` entries (the strength of a connection).
inline double squared_norm(const double* block, std::int64_t size) {
  double s = 0;
  for (std::int64_t k = 0; k < size; ++k) s += block[k] * block[k];
  return s;
}

// The square CSR matrix in b x b blocks: a block is stored where any of its entries is.
// With `squared_norms`, also each block's squared_norm(), made while the block is at hand: the
// aggregation then reads them instead of the blocks (a ninth of the bytes for 3 x 3 blocks).
// Throws std::invalid_argument when the rows are not whole blocks.
BlockSparse to_block_sparse(const CsrMatrix& a, int block, Values* squared_norms = nullptr);

// The CSR matrix of `a`'s entries, every stored block's entries stored (to_block_sparse's inverse).
CsrMatrix to_csr(const BlockSparse& a);

// y = A x (the host back-end's block product: OpenMP over block rows).
void multiply(const BlockSparse& a, std::span<const double> x, std::span<double> y);

// A^T, its blocks transposed.
BlockSparse transpose(const BlockSparse& a);
SingleBlockSparse transpose(const SingleBlockSparse& a);
// The same, each row i of `a` first handed to prepare_row(i) on the thread that then reads it: it
// may change that row's blocks (A T damped into P as R = P^T is made, in one pass).
BlockSparse transpose(BlockSparse& a, const std::function<void(std::int64_t)>& prepare_row);

// A B (Gustavson's row-by-row product over blocks, OpenMP over block rows).
BlockSparse product(const BlockSparse& a, const BlockSparse& b);

// The symmetric matrix whose blocks on and above the diagonal are `upper`'s (the others their mirror).
BlockSparse mirrored(const BlockSparse& upper);
// The blocks on and above the diagonal of P^T A P (A symmetric), without A P ever whole in memory
// (each row of A P is made when P^T's rows come to need it and dropped after) nor P^T (its blocks
// read from P's). With `thread_seconds`, the seconds each thread worked (how evenly they shared it).
BlockSparse upper_triple_product(const BlockSparse& a, const BlockSparse& p,
                                 std::vector<double>* thread_seconds = nullptr);

// The scalar diagonal of a square block matrix (zero where no entry is stored).
Values diagonal(const BlockSparse& a);
// sum_j |a_ij| of each row (the l1-Jacobi smoother's diagonal).
std::vector<double> absolute_row_sums(const BlockSparse& a);

// The n x n row-major dense copy of a square matrix, for the coarsest level's Cholesky.
std::vector<double> to_dense(const BlockSparse& a);

}  // namespace fem::amg

#pragma once
// Block compressed sparse rows with rectangular blocks: the storage of every AMG level. The fine
// operator has d x d blocks (d dofs per node), a prolongator d x k blocks (k near-null vectors
// per aggregate), a coarse operator k x k. Working on blocks keeps the setup's products dense
// and small, and matches the block formats of the device kernels. The setup computes in double;
// the V-cycle multiplies with single-precision copies (half the bytes streamed; a preconditioner
// needs no more), on double vectors.
#include <cstdint>
#include <span>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::amg {

template <class Value>
struct BlockMatrix {
  int row_block = 1, col_block = 1;       // each block is row_block x col_block, row-major
  std::int64_t block_rows = 0, block_cols = 0;
  std::vector<std::int64_t> row_ptr{0};   // size block_rows + 1
  std::vector<std::int32_t> col;          // block columns, sorted within a block row
  std::vector<Value> val;                 // col.size() blocks, each contiguous

  std::int64_t rows() const { return block_rows * row_block; }
  std::int64_t cols() const { return block_cols * col_block; }
  std::int64_t block_size() const { return std::int64_t(row_block) * col_block; }
  std::int64_t nnz() const { return static_cast<std::int64_t>(val.size()); }  // stored scalars
  const Value* block(std::int64_t k) const { return &val[k * block_size()]; }
  Value* block(std::int64_t k) { return &val[k * block_size()]; }
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(std::int64_t) + col.size() * sizeof(std::int32_t) + val.size() * sizeof(Value);
  }
};

using BlockSparse = BlockMatrix<double>;
using SingleBlockSparse = BlockMatrix<float>;

// The single-precision copy the V-cycle uses.
SingleBlockSparse to_single(const BlockSparse& a);

// The square CSR matrix in b x b blocks: a block is stored where any of its entries is.
// Throws std::invalid_argument when the rows are not whole blocks.
BlockSparse to_block_sparse(const CsrMatrix& a, int block);

// y = A x (OpenMP over block rows), accumulated in double.
void multiply(const BlockSparse& a, std::span<const double> x, std::span<double> y);
void multiply(const SingleBlockSparse& a, std::span<const double> x, std::span<double> y);
// y += alpha A x (alpha = -1: a residual update r -= A d in one pass).
void multiply_add(const BlockSparse& a, std::span<const double> x, std::span<double> y, double alpha = 1.0);
void multiply_add(const SingleBlockSparse& a, std::span<const double> x, std::span<double> y, double alpha = 1.0);

// A^T, its blocks transposed.
BlockSparse transpose(const BlockSparse& a);

// A B (Gustavson's row-by-row product over blocks, OpenMP over block rows).
BlockSparse product(const BlockSparse& a, const BlockSparse& b);

// The scalar diagonal of a square block matrix (zero where no entry is stored).
std::vector<double> diagonal(const BlockSparse& a);
// sum_j |a_ij| of each row (the l1-Jacobi smoother's diagonal).
std::vector<double> absolute_row_sums(const SingleBlockSparse& a);

// The n x n row-major dense copy of a square matrix, for the coarsest level's Cholesky.
std::vector<double> to_dense(const BlockSparse& a);

}  // namespace fem::amg

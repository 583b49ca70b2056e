#pragma once
// Block compressed sparse rows with rectangular blocks: the storage of every AMG level. A fine
// operator has d x d blocks (d dofs per node), a prolongator d x k blocks (k near-null vectors
// per aggregate), a coarse operator k x k. The sparse back-ends multiply it in single precision
// (SparseBackend::block_matrix) on double vectors.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/uninitialized_allocator.hpp"

namespace fem::kernels {

template <class Value>
struct BlockMatrix {
  int row_block = 1, col_block = 1;       // each block is row_block x col_block, row-major
  std::int64_t block_rows = 0, block_cols = 0;
  UninitializedVector<std::int64_t> row_ptr{0};  // size block_rows + 1
  UninitializedVector<std::int32_t> col;         // block columns, sorted within a block row
  UninitializedVector<Value> val;                // col.size() blocks, each contiguous

  std::int64_t rows() const { return block_rows * row_block; }
  std::int64_t cols() const { return block_cols * col_block; }
  std::int64_t block_size() const { return std::int64_t(row_block) * col_block; }
  // stored scalars, by the pattern (val may be empty where the values are elsewhere)
  std::int64_t nnz() const { return static_cast<std::int64_t>(col.size()) * block_size(); }
  const Value* block(std::int64_t k) const { return &val[k * block_size()]; }
  Value* block(std::int64_t k) { return &val[k * block_size()]; }
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(std::int64_t) + col.size() * sizeof(std::int32_t) + val.size() * sizeof(Value);
  }
};

// Throws std::invalid_argument unless the blocks are 1..8 by 1..8, what the back-ends' block
// kernels hold; `where` names the back-end.
template <class Value>
void check_block_shape(const BlockMatrix<Value>& a, const std::string& where) {
  if (a.row_block < 1 || a.row_block > 8 || a.col_block < 1 || a.col_block > 8)
    throw std::invalid_argument("block matrix on " + where + " with " + std::to_string(a.row_block) + " x " +
                                std::to_string(a.col_block) + " blocks (at most 8 x 8)");
}

// The threads (work-items) a device's block SpMV gives one block row: a power of two near a
// quarter of the mean blocks per row, 1..32, so each strides over a few blocks.
inline int lanes_per_block_row(std::int64_t blocks, std::int64_t block_rows) {
  const double mean = block_rows > 0 ? static_cast<double>(blocks) / static_cast<double>(block_rows) : 0.0;
  int lanes = 1;
  while (lanes < 32 && 4.0 * lanes < mean) lanes *= 2;
  return lanes;
}
template <class Value>
int lanes_per_block_row(const BlockMatrix<Value>& a) {
  return lanes_per_block_row(static_cast<std::int64_t>(a.col.size()), a.block_rows);
}

}  // namespace fem::kernels

#pragma once
// Compressed sparse row storage of a square matrix: both triangles of a symmetric matrix are
// stored, column indices sorted within each row. Columns and values are left uninitialised by
// resize(): the parallel loops that fill them first are the ones that place them in memory.
#include <cstdint>
#include <vector>

#include "kernels/uninitialized_allocator.hpp"

namespace fem {

struct CsrMatrix {
  std::int64_t rows = 0;
  std::vector<std::int64_t> row_ptr{0};  // size rows + 1
  kernels::UninitializedVector<std::int32_t> col;  // size nnz
  kernels::UninitializedVector<double> val;        // size nnz

  std::int64_t nnz() const { return row_ptr.back(); }
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(std::int64_t) + col.size() * sizeof(std::int32_t) + val.size() * sizeof(double);
  }
};

}  // namespace fem

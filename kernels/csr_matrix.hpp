#pragma once
// Compressed sparse row storage of a square matrix: both triangles of a symmetric matrix are
// stored, column indices sorted within each row.
#include <cstdint>
#include <vector>

namespace fem {

struct CsrMatrix {
  std::int64_t rows = 0;
  std::vector<std::int64_t> row_ptr{0};  // size rows + 1
  std::vector<std::int32_t> col;         // size nnz
  std::vector<double> val;               // size nnz

  std::int64_t nnz() const { return row_ptr.back(); }
  std::size_t bytes() const {
    return row_ptr.size() * sizeof(std::int64_t) + col.size() * sizeof(std::int32_t) + val.size() * sizeof(double);
  }
};

}  // namespace fem

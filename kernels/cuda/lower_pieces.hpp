#pragma once
// How the trailing update's lower triangle is cut for cuBLAS (lower_update.hpp runs the pieces).
// One DSYRK of the whole triangle runs at about half the DGEMM rate at k = 256 (bench/RESULTS.md);
// cut, the triangle is mostly squares below its diagonal, each a GEMM, and small triangles on it,
// each a SYRK. It is halved recursively (a square and two triangles of half the size) down to
// triangles of at most `leaf` rows; the pieces, all independent, go to `streams` streams, largest
// first, each to the stream with the least work so far, so that one piece's tail overlaps the
// next ones. Plain C++.
#include <cstdint>
#include <vector>

namespace fem::kernels::cuda {

struct LowerUpdatePlan {
  int leaf = 0;     // rows of the largest triangle left to one SYRK; 0: the whole triangle is one
  int streams = 1;  // streams the pieces run on
};

// A piece of the triangle: rows [row, row + rows) and columns [col, col + cols) of C; on the
// diagonal (row == col, rows == cols) its lower triangle, by SYRK; below it, the rectangle, by GEMM.
struct LowerPiece {
  std::int64_t row = 0, col = 0, rows = 0, cols = 0;
  int stream = 0;
  bool on_diagonal() const { return row == col; }
};

// The pieces of an n x n triangle under `plan`, in the order they are queued, each with its stream.
std::vector<LowerPiece> lower_pieces(std::int64_t n, const LowerUpdatePlan& plan);

}  // namespace fem::kernels::cuda

#include "kernels/shared/block_spmv.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace fem::kernels {

namespace {

// Below this many stored entries (a level's work, whatever its block size) a parallel region
// costs more than it saves; on a busy machine far more (about the CSR kernel's 20,000 rows of
// elasticity).
constexpr std::int64_t kBlockParallelFrom = 1000000;
constexpr int kMaxBlock = 8;

// Block dimensions known at compile time (the common shapes: the loops unroll) or at run time.
template <int R, int C>
struct Fixed {
  static constexpr int rows() { return R; }
  static constexpr int cols() { return C; }
};
struct Runtime {
  int r, c;
  int rows() const { return r; }
  int cols() const { return c; }
};

template <class Value, class Dims>
void block_rows_product(const BlockMatrix<Value>& a, double alpha, const double* x, double beta, double* y, Dims dims) {
  const int R = dims.rows(), C = dims.cols();
#pragma omp parallel for schedule(static) if (a.nnz() > kBlockParallelFrom)
  for (std::int64_t br = 0; br < a.block_rows; ++br) {
    double s[kMaxBlock] = {};
    for (auto k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
      const Value* b = &a.val[k * R * C];
      const double* xc = x + static_cast<std::int64_t>(a.col[k]) * C;
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) s[r] += b[r * C + c] * xc[c];
    }
    double* yr = y + br * R;
    for (int r = 0; r < R; ++r) yr[r] = alpha * s[r] + (beta != 0 ? beta * yr[r] : 0.0);
  }
}

}  // namespace

template <class Value>
void block_spmv(const BlockMatrix<Value>& a, double alpha, std::span<const double> x, double beta, std::span<double> y) {
  if (static_cast<std::int64_t>(x.size()) != a.cols() || static_cast<std::int64_t>(y.size()) != a.rows())
    throw std::invalid_argument("block_spmv: vector sizes " + std::to_string(x.size()) + ", " +
                                std::to_string(y.size()) + " do not fit a " + std::to_string(a.rows()) + " x " +
                                std::to_string(a.cols()) + " matrix");
  const int r = a.row_block, c = a.col_block;
  if (r < 1 || r > kMaxBlock || c < 1 || c > kMaxBlock)
    throw std::invalid_argument("block_spmv: " + std::to_string(r) + " x " + std::to_string(c) +
                                " blocks (at most 8 x 8)");
  const auto run = [&](auto dims) { block_rows_product(a, alpha, x.data(), beta, y.data(), dims); };
  // The shapes of 3D and 2D elasticity and of heat on the first levels.
  if (r == 1 && c == 1) return run(Fixed<1, 1>{});
  if (r == 2 && c == 2) return run(Fixed<2, 2>{});
  if (r == 3 && c == 3) return run(Fixed<3, 3>{});
  if (r == 6 && c == 6) return run(Fixed<6, 6>{});
  if (r == 3 && c == 6) return run(Fixed<3, 6>{});
  if (r == 6 && c == 3) return run(Fixed<6, 3>{});
  if (r == 2 && c == 3) return run(Fixed<2, 3>{});
  if (r == 3 && c == 2) return run(Fixed<3, 2>{});
  run(Runtime{r, c});
}

template void block_spmv(const BlockMatrix<float>&, double, std::span<const double>, double, std::span<double>);
template void block_spmv(const BlockMatrix<double>&, double, std::span<const double>, double, std::span<double>);

}  // namespace fem::kernels

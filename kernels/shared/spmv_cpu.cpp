#include "kernels/shared/spmv_cpu.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "kernels/shared/stream_prefetch.hpp"

namespace fem::kernels {
namespace {

// Below this many rows a parallel region costs more than the product.
constexpr std::int64_t kParallelFrom = 20000;

void check_sizes(const char* what, std::int64_t rows, std::size_t x, std::size_t y) {
  if (x != static_cast<std::size_t>(rows) || y != static_cast<std::size_t>(rows))
    throw std::invalid_argument(std::string(what) + ": vectors of " + std::to_string(x) + " and " + std::to_string(y) +
                                " entries for a matrix of " + std::to_string(rows) + " rows");
}

}  // namespace

void spmv_serial(const CsrMatrix& a, std::span<const double> x, std::span<double> y) {
  check_sizes("spmv_serial", a.rows, x.size(), y.size());
  for (std::int64_t i = 0; i < a.rows; ++i) {
    double sum = 0;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum += a.val[k] * x[a.col[k]];
    y[i] = sum;
  }
}

void spmv_openmp(const CsrMatrix& a, std::span<const double> x, std::span<double> y) {
  check_sizes("spmv_openmp", a.rows, x.size(), y.size());
  const auto* rp = a.row_ptr.data();
  const auto* ci = a.col.data();
  const auto* v = a.val.data();
#pragma omp parallel for schedule(static) if (a.rows > kParallelFrom)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const auto entries = static_cast<std::size_t>(rp[i + 1] - rp[i]);
    prefetch_ahead(v + rp[i], entries * sizeof(double));
    prefetch_ahead(ci + rp[i], entries * sizeof(std::int32_t));
    double sum = 0;
    for (auto k = rp[i]; k < rp[i + 1]; ++k) sum += v[k] * x[ci[k]];
    y[i] = sum;
  }
}

void spmv_openmp(const BcsrMatrix& a, std::span<const double> x, std::span<double> y) {
  check_sizes("spmv_openmp (BCSR)", a.block_rows * a.block, x.size(), y.size());
  if (a.block != 3) throw std::invalid_argument("spmv_openmp (BCSR): only 3x3 blocks have a CPU kernel");
#pragma omp parallel for schedule(static) if (a.block_rows > kParallelFrom / 3)
  for (std::int64_t br = 0; br < a.block_rows; ++br) {
    double s0 = 0, s1 = 0, s2 = 0;
    for (auto k = a.block_row_ptr[br]; k < a.block_row_ptr[br + 1]; ++k) {
      const double* b = &a.val[9 * k];
      prefetch_ahead(b, 9 * sizeof(double));
      const double* xc = &x[3 * static_cast<std::size_t>(a.block_col[k])];
      s0 += b[0] * xc[0] + b[1] * xc[1] + b[2] * xc[2];
      s1 += b[3] * xc[0] + b[4] * xc[1] + b[5] * xc[2];
      s2 += b[6] * xc[0] + b[7] * xc[1] + b[8] * xc[2];
    }
    y[3 * br] = s0;
    y[3 * br + 1] = s1;
    y[3 * br + 2] = s2;
  }
}

}  // namespace fem::kernels

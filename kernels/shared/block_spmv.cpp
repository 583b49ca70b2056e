#include "kernels/shared/block_spmv.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

#include <omp.h>

#include "kernels/shared/stream_prefetch.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FEM_BLOCK_SPMV_AVX2 1
#endif

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

// Blocks of at most this many bytes (scalar ones: heat's fine level) are prefetched a block row
// at a time, their columns too; larger blocks one at a time as the loop meets them (measured on
// the 2-core machine: 1x1 single 18.1 ms by block, 12.3-15.8 by row; 6x6 9.7 by block, 15.6 by row).
constexpr std::size_t kPrefetchByRowUpTo = 8;

template <class Value, class Dims>
void block_rows_product(const BlockMatrix<Value>& a, double alpha, const double* x, double beta, double* y, Dims dims) {
  const int R = dims.rows(), C = dims.cols();
  const auto block_bytes = sizeof(Value) * static_cast<std::size_t>(R * C);
  const bool by_row = block_bytes <= kPrefetchByRowUpTo;
#pragma omp parallel for schedule(static) if (a.nnz() > kBlockParallelFrom)
  for (std::int64_t br = 0; br < a.block_rows; ++br) {
    double s[kMaxBlock] = {};
    const auto first = a.row_ptr[br], blocks = a.row_ptr[br + 1] - first;
    if (by_row) {
      prefetch_ahead(&a.val[first * R * C], static_cast<std::size_t>(blocks) * block_bytes);
      prefetch_ahead(&a.col[first], static_cast<std::size_t>(blocks) * sizeof(std::int32_t));
    }
    for (auto k = first; k < first + blocks; ++k) {
      const Value* b = &a.val[k * R * C];
      if (!by_row) prefetch_ahead(b, block_bytes);
      const double* xc = x + static_cast<std::int64_t>(a.col[k]) * C;
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) s[r] += b[r * C + c] * xc[c];
    }
    double* yr = y + br * R;
    for (int r = 0; r < R; ++r) yr[r] = alpha * s[r] + (beta != 0 ? beta * yr[r] : 0.0);
  }
}

#if FEM_BLOCK_SPMV_AVX2
// 3x3 blocks (3D elasticity's fine levels) with AVX2 and FMA where the CPU has them: the build
// targets plain x86-64, where the scalar loop's conversions and products, not the memory, bound
// the product. Each block row of a block meets x's three entries in one 4-lane register (the
// fourth lane masked off: the masked loads never read past the arrays), the rows' sums stay in
// registers across a block row and are added across lanes once at its end.
__attribute__((target("avx2,fma"))) inline __m256d block_row(const float* b) {
  return _mm256_cvtps_pd(_mm_maskload_ps(b, _mm_setr_epi32(-1, -1, -1, 0)));
}
__attribute__((target("avx2,fma"))) inline __m256d block_row(const double* b) {
  return _mm256_maskload_pd(b, _mm256_setr_epi64x(-1, -1, -1, 0));
}
__attribute__((target("avx2,fma"))) inline double lane_sum(__m256d v) {
  const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
}

// Block rows [first, last) of a 3x3 block matrix.
template <class Value>
__attribute__((target("avx2,fma"))) void block3_rows_avx2(const BlockMatrix<Value>& a, double alpha, const double* x,
                                                        double beta, double* y, std::int64_t first, std::int64_t last) {
  const __m256i x_lanes = _mm256_setr_epi64x(-1, -1, -1, 0);
  for (std::int64_t br = first; br < last; ++br) {
    __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd();
    for (auto k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k) {
      const Value* b = &a.val[k * 9];
      prefetch_ahead(b, 9 * sizeof(Value));
      const __m256d xc = _mm256_maskload_pd(x + static_cast<std::int64_t>(a.col[k]) * 3, x_lanes);
      s0 = _mm256_fmadd_pd(block_row(b), xc, s0);
      s1 = _mm256_fmadd_pd(block_row(b + 3), xc, s1);
      s2 = _mm256_fmadd_pd(block_row(b + 6), xc, s2);
    }
    double* yr = y + br * 3;
    const double sums[3] = {lane_sum(s0), lane_sum(s1), lane_sum(s2)};
    for (int r = 0; r < 3; ++r) yr[r] = alpha * sums[r] + (beta != 0 ? beta * yr[r] : 0.0);
  }
}

bool has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

// The 3x3 product on AVX2 over the threads, each a contiguous range of block rows (as the
// scalar loop's static schedule gives them); false where the CPU lacks AVX2 or FMA.
template <class Value>
bool block3_product_avx2(const BlockMatrix<Value>& a, double alpha, const double* x, double beta, double* y) {
  if (!has_avx2()) return false;
#pragma omp parallel if (a.nnz() > kBlockParallelFrom)
  {
    const std::int64_t threads = omp_get_num_threads(), thread = omp_get_thread_num();
    block3_rows_avx2(a, alpha, x, beta, y, a.block_rows * thread / threads, a.block_rows * (thread + 1) / threads);
  }
  return true;
}
#endif

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
#if FEM_BLOCK_SPMV_AVX2
  if (r == 3 && c == 3 && block3_product_avx2(a, alpha, x.data(), beta, y.data())) return;
#endif
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

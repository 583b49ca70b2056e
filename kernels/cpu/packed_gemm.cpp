#include "kernels/cpu/packed_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>

namespace fem::kernels::cpu {

namespace {

// One 64-byte vector (an AVX-512 register; two AVX2 or four SSE registers elsewhere), and the
// same type with element alignment for loads from any address.
template <class T>
struct Vec {
  typedef T type __attribute__((vector_size(64)));
  typedef T unaligned __attribute__((vector_size(64), aligned(sizeof(T))));
};

// Register block MR x NR of C: MR rows of three vectors, 24 accumulators; with the three loads
// of B and one broadcast of A a k step uses 28 of the 32 vector registers and does 24
// multiply-adds for 11 loads, so the two FMA ports stay busy and the two load ports do not limit.
// Cache blocks, measured on the Xeon (Cascade Lake, 32 KB L1 and 1 MB L2 per core) the targets
// were set on: with KC = 256 the 48 KB micro-panel of B overflows L1 and the micro-kernel alone
// drops from 68 to 43 GFLOP/s on one core, yet whole products ran faster than with KC = 128 or 96
// (half the passes over C); the MC x KC block of A (480 KB) stays in L2, the KC x NC block of B
// (4 MB) in L3.
template <class T>
struct Blocking {
  static constexpr index_t lanes = 64 / sizeof(T);
  static constexpr index_t mr = 8;
  static constexpr index_t nr = 3 * lanes;
  static constexpr index_t kc = 256;
  static constexpr index_t mc = 240;
  static constexpr index_t nc = 2040;  // a multiple of NR
};

index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// A 64-byte aligned buffer that each thread keeps between calls, so that repeated products do
// not fault in fresh pages every time.
template <class T>
T* thread_buffer(index_t elements) {
  thread_local std::unique_ptr<T[], FreeDeleter> buffer;
  thread_local index_t capacity = 0;
  if (elements > capacity) {
    buffer.reset();
    const std::size_t bytes = (static_cast<std::size_t>(elements) * sizeof(T) + 63) / 64 * 64;
    buffer.reset(static_cast<T*>(std::aligned_alloc(64, bytes)));
    if (!buffer) {
      capacity = 0;
      throw std::bad_alloc();
    }
    capacity = elements;
  }
  return buffer.get();
}

// C(row0.., col0..) := alpha * Apanel * Bpanel + beta * C for one MR x NR tile of which
// mr x nr is inside C; with beta == 0 C is not read.
template <class T>
[[gnu::always_inline]] inline void micro_tile(index_t kc, const T* __restrict ap,
                                              const T* __restrict bp, T alpha, T beta,
                                              T* __restrict c, index_t ldc, index_t mr,
                                              index_t nr, index_t row0, index_t col0, Fill fill) {
  using B = Blocking<T>;
  using V = typename Vec<T>::type;
  using U = typename Vec<T>::unaligned;
  V acc[B::mr][3] = {};
  // C is needed after the loop: fetch every cache line of the tile now.
  for (index_t i = 0; i < std::min(mr, B::mr); ++i) {
    for (index_t v = 0; v < 3; ++v) __builtin_prefetch(c + i * ldc + v * B::lanes, 1);
    __builtin_prefetch(c + i * ldc + B::nr - 1, 1);
  }
  // Three named vectors of B, not an array: GCC keeps an array of them on the stack. With AVX-512
  // the loop is 3 vmovapd, 8 vbroadcastsd and 24 vfmadd231pd on registers, no spills.
  for (index_t k = 0; k < kc; ++k) {
    const V b0 = *reinterpret_cast<const V*>(bp + k * B::nr);
    const V b1 = *reinterpret_cast<const V*>(bp + k * B::nr + B::lanes);
    const V b2 = *reinterpret_cast<const V*>(bp + k * B::nr + 2 * B::lanes);
#pragma GCC unroll 8
    for (index_t i = 0; i < B::mr; ++i) {
      const T a_ik = ap[k * B::mr + i];
      acc[i][0] += a_ik * b0;
      acc[i][1] += a_ik * b1;
      acc[i][2] += a_ik * b2;
    }
  }
  const bool whole = mr == B::mr && nr == B::nr;
  const bool below_diagonal = fill == Fill::full || col0 + B::nr - 1 <= row0;
  if (whole && below_diagonal) {
#pragma GCC unroll 8
    for (index_t i = 0; i < B::mr; ++i)
#pragma GCC unroll 3
      for (index_t v = 0; v < 3; ++v) {
        U& cv = *reinterpret_cast<U*>(c + i * ldc + v * B::lanes);
        cv = beta == T(0) ? alpha * acc[i][v] : alpha * acc[i][v] + beta * cv;
      }
    return;
  }
  alignas(64) T tile[B::mr][B::nr];
  __builtin_memcpy(tile, acc, sizeof(tile));
  for (index_t i = 0; i < mr; ++i) {
    const index_t j_end = fill == Fill::lower ? std::min(nr, row0 + i - col0 + 1) : nr;
    for (index_t j = 0; j < j_end; ++j) {
      T& out = c[i * ldc + j];
      out = beta == T(0) ? alpha * tile[i][j] : alpha * tile[i][j] + beta * out;
    }
  }
}

// All micro-tiles of one MC x NC block of C from packed A (MR-row panels) and B (NR-column
// panels); row0, col0 place the block in C for the lower-triangle mask.
template <class T>
[[gnu::always_inline]] inline void macro_kernel_body(index_t mc, index_t nc, index_t kc,
                                                     const T* apack, const T* bpack, T alpha,
                                                     T beta, T* c, index_t ldc, index_t row0,
                                                     index_t col0, Fill fill) {
  using B = Blocking<T>;
  for (index_t jr = 0; jr < nc; jr += B::nr) {
    for (index_t ir = 0; ir < mc; ir += B::mr) {
      if (fill == Fill::lower && col0 + jr > row0 + ir + B::mr - 1) continue;  // above diagonal
      micro_tile(kc, apack + ir * kc, bpack + jr * kc, alpha, beta, c + ir * ldc + jr, ldc,
                 std::min(B::mr, mc - ir), std::min(B::nr, nc - jr), row0 + ir, col0 + jr, fill);
    }
  }
}

// One compiled copy per instruction set, picked when the program loads.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FEM_CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define FEM_CPU_CLONES
#endif

FEM_CPU_CLONES void macro_kernel(index_t mc, index_t nc, index_t kc, const double* apack,
                                 const double* bpack, double alpha, double beta, double* c,
                                 index_t ldc, index_t row0, index_t col0, Fill fill) {
  macro_kernel_body(mc, nc, kc, apack, bpack, alpha, beta, c, ldc, row0, col0, fill);
}
FEM_CPU_CLONES void macro_kernel(index_t mc, index_t nc, index_t kc, const float* apack,
                                 const float* bpack, float alpha, float beta, float* c,
                                 index_t ldc, index_t row0, index_t col0, Fill fill) {
  macro_kernel_body(mc, nc, kc, apack, bpack, alpha, beta, c, ldc, row0, col0, fill);
}

// Rows i0 .. i0 + rows of A, columns k0 .. k0 + kc, as MR-row panels: panel p holds
// A(i0 + p*MR + r, k0 + k) at [p*MR*kc + k*MR + r], zero below A.
template <class T>
void pack_a(StridedView<const T> a, index_t i0, index_t rows, index_t k0, index_t kc, T* dst) {
  constexpr index_t mr = Blocking<T>::mr;
  for (index_t p = 0; p < ceil_div(rows, mr); ++p, dst += mr * kc)
    for (index_t r = 0; r < mr; ++r) {
      const index_t i = i0 + p * mr + r;
      if (p * mr + r < rows)
        for (index_t k = 0; k < kc; ++k) dst[k * mr + r] = a(i, k0 + k);
      else
        for (index_t k = 0; k < kc; ++k) dst[k * mr + r] = T(0);
    }
}

// Columns j0 .. j0 + cols of B, rows k0 .. k0 + kc, as NR-column panels: panel p holds
// B(k0 + k, j0 + p*NR + q) at [p*NR*kc + k*NR + q], zero right of B.
template <class T>
void pack_b(StridedView<const T> b, index_t j0, index_t cols, index_t k0, index_t kc, T* dst) {
  constexpr index_t nr = Blocking<T>::nr;
  for (index_t p = 0; p < ceil_div(cols, nr); ++p, dst += nr * kc) {
    const index_t width = std::min(nr, cols - p * nr);
    for (index_t k = 0; k < kc; ++k) {
      const T* src = &b(k0 + k, j0 + p * nr);
      T* row = dst + k * nr;
      if (b.col_stride == 1)
        for (index_t q = 0; q < width; ++q) row[q] = src[q];
      else
        for (index_t q = 0; q < width; ++q) row[q] = src[q * b.col_stride];
      for (index_t q = width; q < nr; ++q) row[q] = T(0);
    }
  }
}

// The rectangle of C that one thread computes.
struct Part {
  index_t row_begin, row_end, col_begin, col_end;
};

// Start of run p of `parts` when [0, extent) is cut into runs of whole `unit`s holding about
// equal shares of the work; work_before(i) is the work of the lines before line i.
template <class Work>
index_t run_start(index_t extent, index_t unit, index_t p, index_t parts, Work work_before) {
  if (p >= parts) return extent;
  const double target = work_before(extent) * double(p) / double(parts);
  index_t start = 0;
  while (start < extent && work_before(start) < target) start += unit;
  return std::min(start, extent);
}

// Part `t` of `threads`. The threads form a grid of row_parts x col_parts rectangles of C, each
// packing its own rows of A and columns of B, so that no thread ever waits for another; A is
// then packed col_parts times and B row_parts times, and the grid that packs least wins. The
// lower triangle is cut along rows only, into runs of equal area.
template <class T>
Part thread_part(index_t m, index_t n, index_t k, Fill fill, index_t t, index_t threads) {
  using B = Blocking<T>;
  index_t row_parts = threads;  // also where no grid gives every thread some of C
  if (fill == Fill::full) {
    double least = std::numeric_limits<double>::infinity();
    for (index_t r = 1; r <= threads; ++r) {
      const index_t c = threads / r;
      if (threads % r || r > ceil_div(m, B::mr) || c > ceil_div(n, B::nr)) continue;
      const double packed = (double(c) * double(m) + double(r) * double(n)) * double(k);
      if (packed < least) least = packed, row_parts = r;
    }
  }
  const index_t col_parts = threads / row_parts;
  const index_t r = t / col_parts, c = t % col_parts;
  const auto rows_before = [&](index_t i) {
    if (fill == Fill::full) return double(i);
    const double tri = double(std::min(i, n));  // row i < n holds i + 1 elements, later rows n
    return tri * (tri + 1) / 2 + double(std::max<index_t>(i - n, 0)) * double(n);
  };
  const auto cols_before = [](index_t j) { return double(j); };
  return {run_start(m, B::mr, r, row_parts, rows_before),
          run_start(m, B::mr, r + 1, row_parts, rows_before),
          run_start(n, B::nr, c, col_parts, cols_before),
          run_start(n, B::nr, c + 1, col_parts, cols_before)};
}

// C := alpha * A * B + beta * C on one part of C, with this thread's own packed operands; beta
// is applied with the first KC slice of the product.
template <class T>
void gemm_part(T alpha, StridedView<const T> a, StridedView<const T> b, T beta, StridedView<T> c,
               Fill fill, Part part) {
  using B = Blocking<T>;
  const index_t k = a.cols;
  const index_t rows = part.row_end - part.row_begin, cols = part.col_end - part.col_begin;
  if (rows <= 0 || cols <= 0) return;
  // Blocks of equal size rather than full ones and a thin remainder.
  const index_t mc_step = ceil_div(ceil_div(rows, ceil_div(rows, B::mc)), B::mr) * B::mr;
  const index_t kc_step = ceil_div(k, ceil_div(k, B::kc));
  const index_t a_size = ceil_div(mc_step * kc_step, B::lanes) * B::lanes;  // keeps B 64-byte aligned
  const index_t b_size = ceil_div(std::min(cols, B::nc), B::nr) * B::nr * kc_step;
  T* apack = thread_buffer<T>(a_size + b_size);
  T* bpack = apack + a_size;
  for (index_t jc = part.col_begin; jc < part.col_end; jc += B::nc) {
    const index_t nc = std::min(B::nc, part.col_end - jc);
    for (index_t pc = 0; pc < k; pc += kc_step) {
      const index_t kc = std::min(kc_step, k - pc);
      const T beta_here = pc == 0 ? beta : T(1);
      pack_b(b, jc, nc, pc, kc, bpack);
      for (index_t ic = part.row_begin; ic < part.row_end; ic += mc_step) {
        const index_t mc = std::min(mc_step, part.row_end - ic);
        if (fill == Fill::lower && jc > ic + mc - 1) continue;  // block above the diagonal
        pack_a(a, ic, mc, pc, kc, apack);
        macro_kernel(mc, nc, kc, apack, bpack, alpha, beta_here, &c(ic, jc), c.row_stride, ic,
                     jc, fill);
      }
    }
  }
}

// Below this many multiply-adds the fork/join of a parallel region costs more than it saves.
constexpr index_t parallel_threshold = index_t{128} * 128 * 128;

template <class T>
void scale(T beta, StridedView<T> c, Fill fill) {
  if (beta == T(1)) return;
  for (index_t i = 0; i < c.rows; ++i) {
    T* row = &c(i, 0);
    const index_t j_end = fill == Fill::lower ? std::min(i + 1, c.cols) : c.cols;
    for (index_t j = 0; j < j_end; ++j) row[j] = beta == T(0) ? T(0) : beta * row[j];
  }
}

template <class T>
void packed_gemm_impl(T alpha, StridedView<const T> a, StridedView<const T> b, T beta,
                      StridedView<T> c, Fill fill) {
  const index_t m = c.rows, n = c.cols, k = a.cols;
  if (k == 0 || alpha == T(0)) {
    scale(beta, c, fill);
    return;
  }
  const index_t threads = m * n * k >= parallel_threshold ? omp_get_max_threads() : 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
  gemm_part(alpha, a, b, beta, c, fill,
            thread_part<T>(m, n, k, fill, omp_get_thread_num(), omp_get_num_threads()));
}

}  // namespace

void packed_gemm(double alpha, StridedView<const double> a, StridedView<const double> b,
                 double beta, StridedView<double> c, Fill fill) {
  packed_gemm_impl(alpha, a, b, beta, c, fill);
}
void packed_gemm(float alpha, StridedView<const float> a, StridedView<const float> b, float beta,
                 StridedView<float> c, Fill fill) {
  packed_gemm_impl(alpha, a, b, beta, c, fill);
}

}  // namespace fem::kernels::cpu

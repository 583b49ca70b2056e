#include "kernels/cpu/packed_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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

// Register block MR x NR of C: MR rows of NV vectors, 24 accumulators, so that with the NV
// loads of B and one broadcast of A each k step stays within the 32 vector registers and does
// 24 multiply-adds for 11 loads (the two FMA ports stay busy, the two load ports do not limit).
// Cache blocks: the KC x NR micro-panel of B is reused by every MR row block and stays in L1
// (24 KB), an MC x KC block of A stays in L2, a KC x NC block of B in L3.
template <class T>
struct Blocking {
  static constexpr index_t lanes = 64 / sizeof(T);
  static constexpr index_t mr = 8;
  static constexpr index_t nv = 3;
  static constexpr index_t nr = nv * lanes;
  static constexpr index_t kc = 128;
  static constexpr index_t mc = 480;
  static constexpr index_t nc = 4096;
};

index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
std::unique_ptr<T[], FreeDeleter> aligned_buffer(index_t elements) {
  const std::size_t bytes = (static_cast<std::size_t>(elements) * sizeof(T) + 63) / 64 * 64;
  auto* p = static_cast<T*>(std::aligned_alloc(64, std::max<std::size_t>(bytes, 64)));
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<T[], FreeDeleter>(p);
}

// C(row0.., col0..) += alpha * Apanel * Bpanel for one MR x NR tile of which mr x nr is inside C.
template <class T>
[[gnu::always_inline]] inline void micro_tile(index_t kc, const T* __restrict ap,
                                              const T* __restrict bp, T alpha, T* __restrict c,
                                              index_t ldc, index_t mr, index_t nr, index_t row0,
                                              index_t col0, Fill fill) {
  using B = Blocking<T>;
  using V = typename Vec<T>::type;
  using U = typename Vec<T>::unaligned;
  V acc[B::mr][B::nv] = {};
  for (index_t i = 0; i < std::min(mr, B::mr); ++i) {  // C is needed after the loop: fetch it now
    __builtin_prefetch(c + i * ldc, 1);
    __builtin_prefetch(c + i * ldc + B::nr - 1, 1);
  }
  for (index_t k = 0; k < kc; ++k) {
    V b[B::nv];
#pragma GCC unroll 4
    for (index_t v = 0; v < B::nv; ++v) b[v] = *reinterpret_cast<const V*>(bp + k * B::nr + v * B::lanes);
#pragma GCC unroll 8
    for (index_t i = 0; i < B::mr; ++i) {
      const T a_ik = ap[k * B::mr + i];
#pragma GCC unroll 4
      for (index_t v = 0; v < B::nv; ++v) acc[i][v] += a_ik * b[v];
    }
  }
  const bool whole = mr == B::mr && nr == B::nr;
  const bool below_diagonal = fill == Fill::full || col0 + B::nr - 1 <= row0;
  if (whole && below_diagonal) {
#pragma GCC unroll 8
    for (index_t i = 0; i < B::mr; ++i)
#pragma GCC unroll 4
      for (index_t v = 0; v < B::nv; ++v) {
        U& cv = *reinterpret_cast<U*>(c + i * ldc + v * B::lanes);
        cv += alpha * acc[i][v];
      }
    return;
  }
  alignas(64) T tile[B::mr][B::nr];
  __builtin_memcpy(tile, acc, sizeof(tile));
  for (index_t i = 0; i < mr; ++i) {
    const index_t j_end = fill == Fill::lower ? std::min(nr, row0 + i - col0 + 1) : nr;
    for (index_t j = 0; j < j_end; ++j) c[i * ldc + j] += alpha * tile[i][j];
  }
}

// All micro-tiles of one MC x NC block of C from packed A (MR-row panels) and B (NR-column panels).
template <class T>
[[gnu::always_inline]] inline void macro_kernel_body(index_t mc, index_t nc, index_t kc,
                                                     const T* apack, const T* bpack, T alpha, T* c,
                                                     index_t ldc, index_t row0, index_t col0,
                                                     Fill fill) {
  using B = Blocking<T>;
  for (index_t jr = 0; jr < nc; jr += B::nr) {
    for (index_t ir = 0; ir < mc; ir += B::mr) {
      if (fill == Fill::lower && col0 + jr > row0 + ir + B::mr - 1) continue;  // above diagonal
      micro_tile(kc, apack + ir * kc, bpack + jr * kc, alpha, c + ir * ldc + jr, ldc,
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
                                 const double* bpack, double alpha, double* c, index_t ldc,
                                 index_t row0, index_t col0, Fill fill) {
  macro_kernel_body(mc, nc, kc, apack, bpack, alpha, c, ldc, row0, col0, fill);
}
FEM_CPU_CLONES void macro_kernel(index_t mc, index_t nc, index_t kc, const float* apack,
                                 const float* bpack, float alpha, float* c, index_t ldc,
                                 index_t row0, index_t col0, Fill fill) {
  macro_kernel_body(mc, nc, kc, apack, bpack, alpha, c, ldc, row0, col0, fill);
}

// Rows [0, MR) of panel p hold A(p*MR + r, k0 + k) at [k*MR + r], zero beyond A.
template <class T>
void pack_a_panel(StridedView<const T> a, index_t panel, index_t k0, index_t kc, T* dst) {
  constexpr index_t mr = Blocking<T>::mr;
  const index_t i0 = panel * mr;
  for (index_t r = 0; r < mr; ++r) {
    const index_t i = i0 + r;
    for (index_t k = 0; k < kc; ++k) dst[k * mr + r] = i < a.rows ? a(i, k0 + k) : T(0);
  }
}

// Columns [0, NR) of panel p hold B(k0 + k, j0 + p*NR + q) at [k*NR + q], zero beyond B.
template <class T>
void pack_b_panel(StridedView<const T> b, index_t j0, index_t panel, index_t k0, index_t kc,
                  T* dst) {
  constexpr index_t nr = Blocking<T>::nr;
  const index_t jp = j0 + panel * nr;
  for (index_t k = 0; k < kc; ++k)
    for (index_t q = 0; q < nr; ++q)
      dst[k * nr + q] = jp + q < b.cols ? b(k0 + k, jp + q) : T(0);
}

// Below this many multiply-adds the fork/join of a parallel region costs more than it saves.
constexpr index_t parallel_threshold = index_t{128} * 128 * 128;

template <class T>
void scale(T beta, StridedView<T> c, Fill fill) {
  if (beta == T(1)) return;
#pragma omp parallel for schedule(static) if (c.rows * c.cols >= parallel_threshold / 32)
  for (index_t i = 0; i < c.rows; ++i) {
    T* row = &c(i, 0);
    const index_t j_end = fill == Fill::lower ? std::min(i + 1, c.cols) : c.cols;
    for (index_t j = 0; j < j_end; ++j) row[j] = beta == T(0) ? T(0) : beta * row[j];
  }
}

template <class T>
void packed_gemm_impl(T alpha, StridedView<const T> a, StridedView<const T> b, T beta,
                      StridedView<T> c, Fill fill) {
  using B = Blocking<T>;
  scale(beta, c, fill);
  const index_t m = c.rows, n = c.cols, k = a.cols;
  if (k == 0 || alpha == T(0)) return;

  const bool parallel = m * n * k >= parallel_threshold;
  const index_t threads = parallel ? omp_get_max_threads() : 1;
  // Enough row blocks for every thread, each a whole number of register blocks.
  const index_t mc = std::min(B::mc, ceil_div(ceil_div(m, threads), B::mr) * B::mr);
  const index_t a_panels = ceil_div(m, B::mr);
  auto apack = aligned_buffer<T>(a_panels * B::mr * B::kc);
  auto bpack = aligned_buffer<T>(B::kc * ceil_div(std::min(n, B::nc), B::nr) * B::nr);

#pragma omp parallel if (parallel)
  for (index_t jc = 0; jc < n; jc += B::nc) {
    const index_t nc = std::min(B::nc, n - jc);
    for (index_t pc = 0; pc < k; pc += B::kc) {
      const index_t kc = std::min(B::kc, k - pc);
#pragma omp for schedule(static)
      for (index_t p = 0; p < ceil_div(nc, B::nr); ++p)
        pack_b_panel(b, jc, p, pc, kc, bpack.get() + p * B::nr * kc);
#pragma omp for schedule(static)
      for (index_t p = 0; p < a_panels; ++p) pack_a_panel(a, p, pc, kc, apack.get() + p * B::mr * kc);
#pragma omp for schedule(dynamic, 1)
      for (index_t ic = 0; ic < m; ic += mc) {
        if (fill == Fill::lower && jc > ic + mc - 1) continue;  // block above the diagonal
        macro_kernel(std::min(mc, m - ic), nc, kc, apack.get() + ic * kc, bpack.get(), alpha,
                     &c(ic, jc), c.row_stride, ic, jc, fill);
      }
    }
  }
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

#include "solvers/direct/band_cholesky.hpp"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "solvers/direct/band_look_ahead.hpp"
#include "kernels/shared/blas_calls.hpp"
#include "support/first_failure.hpp"

namespace fem::band {

namespace blas = kernels::blas;

using kernels::DeviceMatrix;
using kernels::Op;
using kernels::Side;

template <class T>
DeviceMatrix<T> BandOnBackend<T>::tile(index_t i, index_t j, index_t rows, index_t cols) const {
  return {storage.storage, storage.offset + layout.offset(i, j), rows, cols, layout.window()};
}

namespace {

// One step of the factorisation: the block column starting at column j.
struct Step {
  index_t j;     // first column
  index_t size;  // columns in the block
  index_t below; // rows of the panel under the diagonal block (within the bandwidth)
};

Step step_at(const BandLayout& layout, index_t j) {
  const index_t size = std::min(layout.block, layout.n - j);
  return {j, size, std::min(layout.bandwidth, layout.n - j - size)};
}

// B := B L^-T, recursively halving L so that all but thin column strips of the work is GEMM
// (the back-ends' tile solvers are simple substitution loops, slow on long panels).
template <class T>
void panel_solve(kernels::DenseBackend& backend, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b) {
  constexpr index_t strip = 16;
  const index_t n = l.rows;
  if (n <= strip) {
    backend.trsm(Side::right, Op::transpose, l, b);
    return;
  }
  const index_t half = n / 2 / 8 * 8;  // a multiple of 8, at least 8
  const auto b1 = b.block(0, 0, b.rows, half), b2 = b.block(0, half, b.rows, n - half);
  panel_solve(backend, l.block(0, 0, half, half), b1);
  backend.gemm(Op::none, Op::transpose, T(-1), b1, l.block(half, 0, n - half, half), T(1), b2);
  panel_solve(backend, l.block(half, half, n - half, n - half), b2);
}

// POTRF on the diagonal block, then the panel := panel L11^-T.
template <class T>
void factor_block_column(kernels::DenseBackend& backend, const BandOnBackend<T>& band, const Step& s) {
  const auto l11 = band.tile(s.j, s.j, s.size, s.size);
  try {
    backend.potrf(l11);
  } catch (const kernels::NotPositiveDefinite& e) {
    throw kernels::NotPositiveDefinite(s.j + e.column());
  }
  if (s.below > 0) panel_solve(backend, l11, band.tile(s.j + s.size, s.j, s.below, s.size));
}

// Trailing columns [c, c + width) of the window of step s: A -= P Pᵀ on their lower part.
template <class T>
void update_columns(kernels::DenseBackend& backend, const BandOnBackend<T>& band, const Step& s, index_t c,
                    index_t width) {
  const index_t end = s.j + s.size + s.below;  // one past the last row the panel reaches
  const auto p_c = band.tile(c, s.j, width, s.size);
  backend.syrk(T(-1), p_c, T(1), band.tile(c, c, width, width));
  const index_t rows = end - c - width;
  if (rows > 0)
    backend.gemm(Op::none, Op::transpose, T(-1), band.tile(c + width, s.j, rows, s.size), p_c, T(1),
                 band.tile(c + width, c, rows, width));
}

template <class T>
void factor_in_order(kernels::DenseBackend& backend, const BandOnBackend<T>& band, const ColumnsDone& columns_done) {
  for (index_t j = 0; j < band.layout.n; j += band.layout.block) {
    const Step s = step_at(band.layout, j);
    factor_block_column(backend, band, s);
    if (s.below > 0) update_columns(backend, band, s, s.j + s.size, s.below);
    if (columns_done) columns_done(s.j + s.size);
  }
}

// Block column b (columns [b nb, (b + 1) nb)) is the unit of dependency: factoring it reads and
// writes it; the update of step k on it reads column k and writes it. Updates of one column
// by successive steps are ordered by their common inout dependency.
template <class T>
void factor_with_tasks(kernels::DenseBackend& backend, const BandOnBackend<T>& band) {
  const BandLayout& layout = band.layout;
  const index_t nb = layout.block;
  const index_t columns = (layout.n + nb - 1) / nb;
  std::vector<char> column_token(static_cast<std::size_t>(columns));
  char* token = column_token.data();
  FirstFailure failure;
  const blas::OneBlasThreadPerCall one_thread_per_call;  // the tasks are the parallelism
  const auto guarded = [&](auto&& work) {
    if (!failure.failed()) failure.run(work);
  };
#pragma omp parallel
#pragma omp single
  for (index_t k = 0; k < columns; ++k) {
    const Step s = step_at(layout, k * nb);
#pragma omp task default(shared) firstprivate(s, k) depend(inout : token[k])
    guarded([&] { factor_block_column(backend, band, s); });
    for (index_t c = s.j + s.size, b = k + 1; c < s.j + s.size + s.below; c += nb, ++b) {
      const index_t width = std::min(nb, s.j + s.size + s.below - c);
#pragma omp task default(shared) firstprivate(s, k, b, c, width) depend(in : token[k]) depend(inout : token[b])
      guarded([&] { update_columns(backend, band, s, c, width); });
    }
  }
  failure.rethrow_if_failed();
}

}  // namespace

template <class T>
void factor(kernels::DenseBackend& backend, const BandOnBackend<T>& band, Schedule schedule, const ColumnsDone& columns_done) {
  if (band.layout.n == 0) return;
  if (schedule == Schedule::look_ahead) {
    if (!backend.uses_host_memory()) throw std::logic_error("band Cholesky: look-ahead needs the band in host memory");
    backend.synchronize();
    factor_look_ahead(band.rows(), band.layout, columns_done);
  } else if (schedule == Schedule::tasks) {
    factor_with_tasks(backend, band);
  } else {
    factor_in_order(backend, band, columns_done);
  }
}

namespace {

// Forward: X1 := L11^-1 X1, then the rows the panel reaches lose P X1. Backward, in reverse:
// X1 -= Pᵀ X2, then X1 := L11^-T X1. The panel's entries past the bandwidth are zero padding.
template <class T>
void substitute_by_blocks(kernels::DenseBackend& backend, const BandOnBackend<T>& factor, const DeviceMatrix<T>& x,
                          Sweep sweep) {
  const BandLayout& layout = factor.layout;
  const index_t r = x.cols;
  const auto rows = [&](index_t first, index_t count) { return x.block(first, 0, count, r); };
  if (sweep == Sweep::forward) {
    for (index_t j = 0; j < layout.n; j += layout.block) {
      const Step s = step_at(layout, j);
      const auto x1 = rows(s.j, s.size);
      backend.trsm(Side::left, Op::none, factor.tile(s.j, s.j, s.size, s.size), x1);
      if (s.below > 0)
        backend.gemm(Op::none, Op::none, T(-1), factor.tile(s.j + s.size, s.j, s.below, s.size), x1, T(1),
                     rows(s.j + s.size, s.below));
    }
    return;
  }
  const index_t last = (layout.n - 1) / layout.block * layout.block;
  for (index_t j = last; j >= 0; j -= layout.block) {
    const Step s = step_at(layout, j);
    const auto x1 = rows(s.j, s.size);
    if (s.below > 0)
      backend.gemm(Op::transpose, Op::none, T(-1), factor.tile(s.j + s.size, s.j, s.below, s.size),
                   rows(s.j + s.size, s.below), T(1), x1);
    backend.trsm(Side::left, Op::transpose, factor.tile(s.j, s.j, s.size, s.size), x1);
  }
}

// The same on the host's BLAS for a few right-hand sides, as DPBTRS: our rows are LAPACK's
// upper band storage (row i of L is column i of U = Lᵀ, ldab = pitch), so one DTBSV with Uᵀ
// (forward) and one with U (backward) a right-hand side, the rows' padding left of the band
// skipped by starting each column kd above its diagonal.
template <class T>
void substitute_on_host(const BandOnBackend<T>& factor, const DeviceMatrix<T>& x, std::initializer_list<Sweep> sweeps) {
  const BandLayout& layout = factor.layout;
  const T* ab = factor.rows() + (layout.window() - layout.bandwidth);
  const auto n = static_cast<int>(layout.n), kd = static_cast<int>(layout.bandwidth);
  const auto ldab = static_cast<int>(layout.pitch());
  T* values = x.data();
  std::vector<T> v(static_cast<std::size_t>(layout.n));  // one column, contiguous
  for (index_t c = 0; c < x.cols; ++c) {
    for (index_t i = 0; i < layout.n; ++i) v[i] = values[i * x.ld + c];
    for (const Sweep sweep : sweeps) blas::tbsv(sweep == Sweep::forward ? CblasTrans : CblasNoTrans, n, kd, ab, ldab, v.data());
    for (index_t i = 0; i < layout.n; ++i) values[i * x.ld + c] = v[i];
  }
}

// Both sweeps or one, on the host's BLAS where that is faster (a few right-hand sides in host
// memory: memory-bound, each sweep streams the band once).
template <class T>
void substitute_sweeps(kernels::DenseBackend& backend, const BandOnBackend<T>& factor, const DeviceMatrix<T>& x,
                       std::initializer_list<Sweep> sweeps) {
  if (factor.layout.n == 0 || x.cols == 0) return;
  if (backend.uses_host_memory() && x.cols < 8) {
    backend.synchronize();
    substitute_on_host(factor, x, sweeps);
  } else {
    for (const Sweep sweep : sweeps) substitute_by_blocks(backend, factor, x, sweep);
  }
}

}  // namespace

template <class T>
void substitute(kernels::DenseBackend& backend, const BandOnBackend<T>& factor, const DeviceMatrix<T>& x) {
  substitute_sweeps(backend, factor, x, {Sweep::forward, Sweep::backward});
}

template <class T>
void substitute(kernels::DenseBackend& backend, const BandOnBackend<T>& factor, const DeviceMatrix<T>& x, Sweep sweep) {
  substitute_sweeps(backend, factor, x, {sweep});
}

template struct BandOnBackend<double>;
template struct BandOnBackend<float>;
template void factor<double>(kernels::DenseBackend&, const BandOnBackend<double>&, Schedule, const ColumnsDone&);
template void factor<float>(kernels::DenseBackend&, const BandOnBackend<float>&, Schedule, const ColumnsDone&);
template void substitute<double>(kernels::DenseBackend&, const BandOnBackend<double>&, const DeviceMatrix<double>&);
template void substitute<float>(kernels::DenseBackend&, const BandOnBackend<float>&, const DeviceMatrix<float>&);
template void substitute<double>(kernels::DenseBackend&, const BandOnBackend<double>&, const DeviceMatrix<double>&,
                                 Sweep);
template void substitute<float>(kernels::DenseBackend&, const BandOnBackend<float>&, const DeviceMatrix<float>&, Sweep);

}  // namespace fem::band

#include "solvers/iterative/amg/smoothed_prolongator.hpp"

#include <stdexcept>
#include <utility>

namespace fem::amg {

namespace {

// Row i of A T damped in place into row i of P.
void damp_row(BlockSparse& p, const BlockSparse& t, std::span<const double> inv_diag, double omega, std::int64_t i) {
  const int R = p.row_block, C = p.col_block;
  for (auto k = p.row_ptr[i]; k < p.row_ptr[i + 1]; ++k)
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) p.block(k)[r * C + c] *= -omega * inv_diag[i * R + r];
  for (auto kt = t.row_ptr[i]; kt < t.row_ptr[i + 1]; ++kt) {
    auto k = p.row_ptr[i];
    while (k < p.row_ptr[i + 1] && p.col[k] != t.col[kt]) ++k;
    if (k == p.row_ptr[i + 1]) throw std::logic_error("amg: A T lacks a block of T (a missing diagonal block?)");
    for (int e = 0; e < R * C; ++e) p.block(k)[e] += t.block(kt)[e];
  }
}

}  // namespace

BlockSparse smoothed_prolongator(BlockSparse at, const BlockSparse& t, std::span<const double> inv_diag, double omega) {
  BlockSparse p = std::move(at);
#pragma omp parallel for schedule(static) if (p.block_rows > 20000)
  for (std::int64_t i = 0; i < p.block_rows; ++i) damp_row(p, t, inv_diag, omega, i);
  return p;
}

std::pair<BlockSparse, BlockSparse> smoothed_prolongator_and_restriction(BlockSparse at, const BlockSparse& t,
                                                                         std::span<const double> inv_diag,
                                                                         double omega) {
  BlockSparse p = std::move(at);
  BlockSparse r = transpose(p, [&](std::int64_t i) { damp_row(p, t, inv_diag, omega, i); });
  return {std::move(p), std::move(r)};
}

BlockSparse smoothed_restriction(BlockSparse at_transposed, const BlockSparse& t, std::span<const double> inv_diag,
                                 double omega) {
  BlockSparse r = std::move(at_transposed);
  const int K = r.row_block, D = r.col_block;  // blocks K x D: (coarse I, fine i)
#pragma omp parallel for schedule(static) if (r.block_rows > 20000)
  for (std::int64_t coarse = 0; coarse < r.block_rows; ++coarse)
    for (auto k = r.row_ptr[coarse]; k < r.row_ptr[coarse + 1]; ++k) {
      const std::int64_t i = r.col[k];
      double* block = r.block(k);
      // The same operations as smoothed_prolongator's on the transposed entries: R = P^T exactly.
      for (int v = 0; v < K; ++v)
        for (int c = 0; c < D; ++c) block[v * D + c] *= -omega * inv_diag[i * D + c];
      if (t.row_ptr[i] < t.row_ptr[i + 1] && t.col[t.row_ptr[i]] == coarse) {
        const double* tb = t.block(t.row_ptr[i]);
        for (int v = 0; v < K; ++v)
          for (int c = 0; c < D; ++c) block[v * D + c] += tb[c * K + v];
      }
    }
  return r;
}

BlockSparse galerkin_product(const BlockSparse& a, const BlockSparse& p, std::vector<double>* thread_seconds) {
  return galerkin_from_upper(upper_triple_product(a, p, thread_seconds));
}

BlockSparse galerkin_from_upper(const BlockSparse& upper) {
  BlockSparse coarse = mirrored(upper);
  const int b = coarse.row_block;
  for (std::int64_t i = 0; i < coarse.block_rows; ++i) {
    auto k = coarse.row_ptr[i];
    while (k < coarse.row_ptr[i + 1] && coarse.col[k] != i) ++k;
    if (k == coarse.row_ptr[i + 1]) throw std::logic_error("amg: a coarse operator lacks a diagonal block");
    for (int d = 0; d < b; ++d) {
      double& diag = coarse.block(k)[d * b + d];
      if (diag == 0) diag = 1.0;
    }
  }
  return coarse;
}

}  // namespace fem::amg

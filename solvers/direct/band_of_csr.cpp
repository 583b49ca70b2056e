#include "solvers/direct/band_of_csr.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace fem::band {

index_t bandwidth_of(const CsrMatrix& matrix) {
  index_t kd = 0;
  for (index_t i = 0; i < matrix.rows; ++i)
    for (auto k = matrix.row_ptr[i]; k < matrix.row_ptr[i + 1]; ++k)
      kd = std::max<index_t>(kd, std::abs(i - index_t{matrix.col[k]}));
  return kd;
}

index_t default_block_size(index_t bandwidth, bool gpu, bool two_sided) {
  // CPU (look-ahead, 2 threads, interleaved against DPBTRF + DPBTRS, 2026-11-26): small blocks on
  // narrow bands, where the look-ahead's block column is the critical path (b = 100: 24 at
  // 0.67-0.76x, 48 at 0.78-0.85x; b = 200: 32 at 0.74-0.76x, 48 at 0.79-0.86x), 48 from b = 400
  // (32 to 64 within the noise at b = 500 and 1333), 64 on the widest bands. GPU (H100, n = 1e6):
  // one block column kernel a step while its chain sets the pace (b < 1500); wider blocks, fewer
  // and larger trailing SYRKs, above, 256 wide from b = 2500 (with the panel off the
  // multiprocessors at b = 4000, 256 beat 384 by 2-4 %: kernels/cuda/band_cholesky_cuda.cpp's
  // device_schedule). Two-sided (H100, n = 1e6, two chains side by side, 2026-11-27): 384 at
  // b = 4000 (0.694 s against 0.743 for 256 and 0.728 for 512), 256 still at 3000 (0.600 against
  // 0.610 and 0.626), the one-sided blocks below.
  const index_t target = gpu && two_sided && bandwidth >= 3500 ? 384
                         : gpu ? bandwidth < 1500 ? 64 : bandwidth < 2500 ? 128 : 256
                         : bandwidth < 150 ? 24 : bandwidth < 400 ? 32 : bandwidth < 1500 ? 48 : 64;
  return std::max<index_t>(1, std::min(target, bandwidth));
}

index_t device_bandwidth(index_t kd, index_t n) { return std::max(kd, std::min((kd + 7) / 8 * 8, n - 1)); }

BandLayout make_layout(const CsrMatrix& matrix, index_t block) {
  if (matrix.rows < 0 || static_cast<index_t>(matrix.row_ptr.size()) != matrix.rows + 1)
    throw std::invalid_argument("band solver: the CSR matrix has " + std::to_string(matrix.row_ptr.size()) +
                                " row pointers for " + std::to_string(matrix.rows) + " rows");
  BandLayout layout;
  layout.n = matrix.rows;
  layout.bandwidth = bandwidth_of(matrix);
  layout.block = block > 0 ? block : default_block_size(layout.bandwidth, false);
  return layout;
}

namespace {

// Calls place(j, value) for each entry of row i in its lower triangle.
template <class Place>
void lower_entries(const CsrMatrix& matrix, index_t i, Place&& place) {
  for (auto k = matrix.row_ptr[i]; k < matrix.row_ptr[i + 1]; ++k) {
    const index_t j = matrix.col[k];
    if (j < 0 || j >= matrix.rows)
      throw std::invalid_argument("band solver: row " + std::to_string(i) + " has column " + std::to_string(j) +
                                  " outside the " + std::to_string(matrix.rows) + " columns");
    if (j <= i) place(j, matrix.val[k]);
  }
}

}  // namespace

template <class T>
void fill_band_rows(const CsrMatrix& matrix, const BandLayout& layout, index_t first, index_t last, T* out) {
  const index_t w = layout.window();
  std::fill(out, out + (last - first) * layout.pitch(), T(0));
  for (index_t i = first; i < last; ++i) {
    T* row = out + (i - first) * layout.pitch();
    lower_entries(matrix, i, [&](index_t j, double v) { row[j - i + w] = static_cast<T>(v); });
  }
}

template <class T>
void reflected_band_rows(const CsrMatrix& matrix, const BandLayout& layout, index_t first, index_t chunk,
                         const TakeRows<T>& take) {
  const index_t n = layout.n, kd = layout.bandwidth, pitch = layout.pitch(), rows = n - first;
  if (first < 0 || first > n || chunk < 1)
    throw std::invalid_argument("reflected_band_rows: no rows below row " + std::to_string(first) + " of " +
                                std::to_string(n) + " in chunks of " + std::to_string(chunk));
  // A ring of rows: row r at slot r % slots. Entry (i, j) of A lands in row n - 1 - j, at most kd
  // rows past row n - 1 - i, so once rows [0, n - i) are complete the rows written are within
  // chunk + kd of the first not yet taken.
  const index_t slots = std::min(rows, chunk + kd);
  std::vector<T> ring(static_cast<std::size_t>(slots * pitch), T(0));
  index_t taken = 0;
  // Hands rows [taken, end) over (the ring's wrap cuts them in two) and clears their slots.
  const auto take_until = [&](index_t end) {
    while (taken < end) {
      const index_t slot = taken % slots, count = std::min(end - taken, slots - slot);
      T* data = ring.data() + slot * pitch;
      take(taken, count, data);
      std::fill(data, data + count * pitch, T(0));
      taken += count;
    }
  };
  for (index_t i = n - 1; i >= first; --i) {
    if (n - 1 - i - taken >= chunk) take_until(n - 1 - i);  // rows [0, n - 1 - i) are complete
    const index_t r_diagonal = n - 1 - i;
    lower_entries(matrix, i, [&](index_t j, double v) {
      if (j < first) return;  // in T: the top band's alone
      const index_t r = n - 1 - j;
      ring[static_cast<std::size_t>((r % slots) * pitch + (r_diagonal - r) + layout.window())] = static_cast<T>(v);
    });
  }
  take_until(rows);
}

#define FEM_BAND_ROWS(T)                                                                             \
  template void fill_band_rows<T>(const CsrMatrix&, const BandLayout&, index_t, index_t, T*);      \
  template void reflected_band_rows<T>(const CsrMatrix&, const BandLayout&, index_t, index_t, const TakeRows<T>&);
FEM_BAND_ROWS(double)
FEM_BAND_ROWS(float)
#undef FEM_BAND_ROWS

double cholesky_flops(index_t n, index_t bandwidth) {
  // Columns j < n - kd all have r = kd; the last kd columns have r = kd - 1, ..., 0.
  const double kd = static_cast<double>(std::min(bandwidth, std::max<index_t>(n - 1, 0)));
  const double full = static_cast<double>(n) - kd;
  const double tail = kd * (kd + 1) * (2 * kd + 1) / 6;  // sum of (r + 1)^2 for r = 0 .. kd - 1
  return full * (kd + 1) * (kd + 1) + tail;
}

double substitution_flops(index_t n, index_t bandwidth, index_t rhs) {
  return 2.0 * (2.0 * static_cast<double>(std::min(bandwidth, n)) + 1) * static_cast<double>(n) * static_cast<double>(rhs);
}

}  // namespace fem::band

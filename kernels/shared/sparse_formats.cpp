#include "kernels/shared/sparse_formats.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iterator>

namespace fem::kernels {
namespace {

// Refuses a padded format of `stored` entries of `entry_bytes` each when over the limit.
void check_padding(const char* format, std::size_t stored, std::size_t entry_bytes, std::int64_t nnz,
                   const PaddingLimit& limit) {
  const double fill = nnz > 0 ? static_cast<double>(stored) / static_cast<double>(nnz) : 1.0;
  const std::size_t bytes = stored * entry_bytes;
  if (fill > limit.max_fill || bytes > limit.max_bytes)
    throw FormatRefused(std::string(format) + " refused: padding would store " + std::to_string(stored) +
                        " entries for " + std::to_string(nnz) + " nonzeros (" + std::to_string(fill).substr(0, 6) +
                        "x, " + std::to_string(bytes >> 20) + " MiB; limit " +
                        std::to_string(limit.max_fill).substr(0, 4) + "x and " +
                        std::to_string(limit.max_bytes >> 20) + " MiB): the rows are too irregular for it");
}

std::int64_t row_length(const CsrMatrix& a, std::int64_t i) { return a.row_ptr[i + 1] - a.row_ptr[i]; }

// Marks `flag` set; reports whether this call set it. Many threads may mark the same flag.
bool mark(char& flag) {
  std::atomic_ref<char> f(flag);
  return f.load(std::memory_order_relaxed) == 0 && f.exchange(1, std::memory_order_relaxed) == 0;
}

// The occupied diagonals of `a`, offset_of(i, j) in [-half, half] for entry (i, j), increasing
// (so a row's entries are read left to right); index_of_offset[offset + half] becomes a
// diagonal's position, -1 where none. Marked in parallel.
template <class Offset>
std::vector<std::int32_t> occupied_diagonals(const CsrMatrix& a, std::int64_t half, Offset offset_of,
                                             std::vector<std::int32_t>& index_of_offset) {
  std::vector<char> occupied(static_cast<std::size_t>(2 * half + 1), 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) mark(occupied[offset_of(i, a.col[k]) + half]);
  std::vector<std::int32_t> offsets;
  index_of_offset.assign(occupied.size(), -1);
  for (std::size_t o = 0; o < occupied.size(); ++o)
    if (occupied[o]) {
      index_of_offset[o] = static_cast<std::int32_t>(offsets.size());
      offsets.push_back(static_cast<std::int32_t>(static_cast<std::int64_t>(o) - half));
    }
  return offsets;
}

EllMatrix ell_of_rows(const CsrMatrix& a, std::int64_t width) {
  EllMatrix e;
  e.rows = a.rows;
  e.width = width;
  e.col.assign(static_cast<std::size_t>(width * a.rows), -1);
  e.val.assign(e.col.size(), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const std::int64_t len = std::min(row_length(a, i), width);
    for (std::int64_t k = 0; k < len; ++k) {
      e.col[k * a.rows + i] = a.col[a.row_ptr[i] + k];
      e.val[k * a.rows + i] = a.val[a.row_ptr[i] + k];
    }
  }
  return e;
}

// BCSR without values: the sorted block columns of each block row (as the CSR columns are
// sorted per row). `format` names the refusal when the rows are not whole block rows.
BcsrMatrix block_pattern(const char* format, const CsrMatrix& a, int block) {
  if (block < 1 || a.rows % block != 0)
    throw FormatRefused(std::string(format) + " refused: " + std::to_string(a.rows) +
                        " rows are not a multiple of the block size " + std::to_string(block));
  BcsrMatrix b;
  b.block = block;
  b.block_rows = a.rows / block;
  b.block_row_ptr.assign(static_cast<std::size_t>(b.block_rows + 1), 0);
  // Two parallel passes over the block rows: count their block columns, then write them. Each
  // row's block columns are sorted already: the rows' lists are merged, not sorted.
  auto columns_of = [&](std::int64_t br, std::vector<std::int32_t>& cols, std::vector<std::int32_t>& row,
                        std::vector<std::int32_t>& merged) {
    cols.clear();
    for (std::int64_t i = br * block; i < (br + 1) * block; ++i) {
      row.clear();
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (row.empty() || row.back() != a.col[k] / block) row.push_back(a.col[k] / block);
      merged.clear();
      std::set_union(cols.begin(), cols.end(), row.begin(), row.end(), std::back_inserter(merged));
      cols.swap(merged);
    }
  };
#pragma omp parallel
  {
    std::vector<std::int32_t> cols, row, merged;
#pragma omp for schedule(static)
    for (std::int64_t br = 0; br < b.block_rows; ++br) {
      columns_of(br, cols, row, merged);
      b.block_row_ptr[br + 1] = static_cast<std::int64_t>(cols.size());
    }
  }
  for (std::int64_t br = 0; br < b.block_rows; ++br) b.block_row_ptr[br + 1] += b.block_row_ptr[br];
  b.block_col.resize(static_cast<std::size_t>(b.block_row_ptr.back()));
#pragma omp parallel
  {
    std::vector<std::int32_t> cols, row, merged;
#pragma omp for schedule(static)
    for (std::int64_t br = 0; br < b.block_rows; ++br) {
      columns_of(br, cols, row, merged);
      std::copy(cols.begin(), cols.end(), b.block_col.begin() + b.block_row_ptr[br]);
    }
  }
  return b;
}

// Calls visit(k, r, slot) for each entry k of block row br: r its row within the block row, slot
// its block's position among the block row's blocks. Both are sorted by column, so the slot
// only moves forward along a row.
template <class Visit>
void for_each_entry_in_blocks(const CsrMatrix& a, const BcsrMatrix& b, std::int64_t br, Visit visit) {
  const std::int32_t* blocks = b.block_col.data() + b.block_row_ptr[br];
  for (int r = 0; r < b.block; ++r) {
    const std::int64_t i = br * b.block + r;
    std::int64_t slot = 0;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      while (blocks[slot] != a.col[k] / b.block) ++slot;
      visit(k, r, slot);
    }
  }
}

}  // namespace

void check_csr(const CsrMatrix& a) {
  if (a.rows < 0 || a.row_ptr.size() != static_cast<std::size_t>(a.rows + 1))
    throw std::invalid_argument("CSR matrix: row_ptr has " + std::to_string(a.row_ptr.size()) + " entries for " +
                                std::to_string(a.rows) + " rows (needs rows + 1)");
  if (a.row_ptr[0] != 0 || a.col.size() != static_cast<std::size_t>(a.nnz()) || a.val.size() != a.col.size())
    throw std::invalid_argument("CSR matrix: row_ptr[0] must be 0 and col/val must hold row_ptr[rows] = " +
                                std::to_string(a.nnz()) + " entries (have " + std::to_string(a.col.size()) + "/" +
                                std::to_string(a.val.size()) + ")");
  for (std::int64_t i = 0; i < a.rows; ++i)
    if (a.row_ptr[i + 1] < a.row_ptr[i])
      throw std::invalid_argument("CSR matrix: row_ptr decreases at row " + std::to_string(i));
  // The first column out of range, found in parallel (the matrices reach 10^9 entries).
  const auto entries = static_cast<std::int64_t>(a.col.size());
  std::int64_t first_bad = entries;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t k = 0; k < entries; ++k)
    if (a.col[k] < 0 || a.col[k] >= a.rows) first_bad = std::min(first_bad, k);
  if (first_bad < entries)
    throw std::invalid_argument("CSR matrix: column index " + std::to_string(a.col[first_bad]) + " at entry " +
                                std::to_string(first_bad) + " is outside 0.." + std::to_string(a.rows - 1));
}

EllMatrix to_ell(const CsrMatrix& a, const PaddingLimit& limit) {
  std::int64_t width = 0;
  for (std::int64_t i = 0; i < a.rows; ++i) width = std::max(width, row_length(a, i));
  check_padding("ELL", static_cast<std::size_t>(width * a.rows), 12, a.nnz(), limit);
  return ell_of_rows(a, width);
}

SellMatrix to_sell(const CsrMatrix& a, int slice_height, const PaddingLimit& limit) {
  if (slice_height < 1) throw std::invalid_argument("SELL: slice height must be positive");
  SellMatrix s;
  s.rows = a.rows;
  s.slice_height = slice_height;
  const std::int64_t slices = (a.rows + slice_height - 1) / slice_height;
  s.slice_ptr.assign(static_cast<std::size_t>(slices + 1), 0);
  s.slice_width.assign(static_cast<std::size_t>(slices), 0);
  for (std::int64_t sl = 0; sl < slices; ++sl) {
    std::int64_t width = 0;
    for (std::int64_t i = sl * slice_height; i < std::min(a.rows, (sl + 1) * slice_height); ++i)
      width = std::max(width, row_length(a, i));
    s.slice_width[sl] = static_cast<std::int32_t>(width);
    s.slice_ptr[sl + 1] = s.slice_ptr[sl] + width * slice_height;
  }
  check_padding("SELL", static_cast<std::size_t>(s.slice_ptr.back()), 12, a.nnz(), limit);
  s.col.assign(static_cast<std::size_t>(s.slice_ptr.back()), -1);
  s.val.assign(s.col.size(), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const std::int64_t sl = i / slice_height, lane = i % slice_height;
    for (std::int64_t k = 0; k < row_length(a, i); ++k) {
      const std::int64_t at = s.slice_ptr[sl] + k * slice_height + lane;
      s.col[at] = a.col[a.row_ptr[i] + k];
      s.val[at] = a.val[a.row_ptr[i] + k];
    }
  }
  return s;
}

BcsrMatrix to_bcsr(const CsrMatrix& a, int block, const PaddingLimit& limit, bool planes) {
  BcsrMatrix b = block_pattern("BCSR", a, block);
  b.planes = planes;
  const std::size_t bb = static_cast<std::size_t>(block) * block;
  check_padding("BCSR", b.block_col.size() * bb, 8, a.nnz(), limit);
  b.val.assign(b.block_col.size() * bb, 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t br = 0; br < b.block_rows; ++br) {
    const auto first = static_cast<std::size_t>(b.block_row_ptr[br]);
    const auto count = static_cast<std::size_t>(b.block_row_ptr[br + 1]) - first;
    for_each_entry_in_blocks(a, b, br, [&](std::int64_t k, int r, std::int64_t slot) {
      const auto e = static_cast<std::size_t>(r * block + a.col[k] % block), s = static_cast<std::size_t>(slot);
      b.val[planes ? bb * first + e * count + s : (first + s) * bb + e] = a.val[k];
    });
  }
  return b;
}

DiaMatrix to_dia(const CsrMatrix& a, const PaddingLimit& limit) {
  // Offsets j - i lie in (-rows, rows): index them directly.
  std::vector<std::int32_t> index_of_offset;
  DiaMatrix d;
  d.rows = a.rows;
  d.offset = occupied_diagonals(a, a.rows, [](std::int64_t i, std::int64_t j) { return j - i; }, index_of_offset);
  check_padding("DIA", d.offset.size() * static_cast<std::size_t>(a.rows), 8, a.nnz(), limit);
  d.val.assign(d.offset.size() * static_cast<std::size_t>(a.rows), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      d.val[index_of_offset[a.col[k] - i + a.rows] * a.rows + i] = a.val[k];
  return d;
}

BellMatrix to_bell(const CsrMatrix& a, int block, const PaddingLimit& limit) {
  const BcsrMatrix pattern = block_pattern("BELL", a, block);
  std::int64_t width = 0;
  for (std::int64_t br = 0; br < pattern.block_rows; ++br)
    width = std::max(width, pattern.block_row_ptr[br + 1] - pattern.block_row_ptr[br]);
  const std::int64_t bb = std::int64_t(block) * block, n = pattern.block_rows;
  check_padding("BELL", static_cast<std::size_t>(width * n * bb), 8, a.nnz(), limit);
  BellMatrix e;
  e.block = block;
  e.block_rows = n;
  e.width = width;
  e.col.assign(static_cast<std::size_t>(width * n), -1);
  e.val.assign(static_cast<std::size_t>(width * n * bb), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t br = 0; br < n; ++br) {
    for (auto k = pattern.block_row_ptr[br]; k < pattern.block_row_ptr[br + 1]; ++k)
      e.col[(k - pattern.block_row_ptr[br]) * n + br] = pattern.block_col[k];
    for_each_entry_in_blocks(a, pattern, br, [&](std::int64_t k, int r, std::int64_t slot) {
      e.val[(slot * bb + r * block + a.col[k] % block) * n + br] = a.val[k];
    });
  }
  return e;
}

CdsMatrix to_cds(const CsrMatrix& a, int block, const PaddingLimit& limit) {
  if (block < 1 || a.rows % block != 0)
    throw FormatRefused("CDS refused: " + std::to_string(a.rows) + " rows are not a multiple of the block size " +
                        std::to_string(block));
  CdsMatrix d;
  d.block = block;
  d.block_rows = a.rows / block;
  const std::int64_t n = d.block_rows, bb = std::int64_t(block) * block;
  // Block offsets lie in (-n, n): index them directly.
  std::vector<std::int32_t> index_of_offset;
  d.offset = occupied_diagonals(
      a, n, [block](std::int64_t i, std::int64_t j) { return j / block - i / block; }, index_of_offset);
  check_padding("CDS", d.offset.size() * static_cast<std::size_t>(n * bb), 8, a.nnz(), limit);
  d.val.assign(d.offset.size() * static_cast<std::size_t>(n * bb), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const std::int64_t br = i / block, r = i % block;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      const std::int64_t diagonal = index_of_offset[a.col[k] / block - br + n];
      d.val[(diagonal * bb + r * block + a.col[k] % block) * n + br] = a.val[k];
    }
  }
  return d;
}

HybMatrix to_hyb(const CsrMatrix& a, const PaddingLimit& limit) {
  // Bell & Garland: the largest width that at least a third of the rows still fill.
  std::vector<std::int64_t> rows_with_length;  // rows_with_length[k] = rows of length >= k
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const auto len = static_cast<std::size_t>(row_length(a, i));
    if (rows_with_length.size() <= len) rows_with_length.resize(len + 1, 0);
    ++rows_with_length[len];
  }
  for (std::size_t k = rows_with_length.size(); k-- > 1;) rows_with_length[k - 1] += rows_with_length[k];
  std::int64_t width = 0;
  while (width + 1 < static_cast<std::int64_t>(rows_with_length.size()) &&
         3 * rows_with_length[width + 1] >= a.rows)
    ++width;
  check_padding("HYB", static_cast<std::size_t>(width * a.rows), 12, a.nnz(), limit);
  HybMatrix h;
  h.ell = ell_of_rows(a, width);
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (auto k = a.row_ptr[i] + width; k < a.row_ptr[i + 1]; ++k) {
      h.coo_row.push_back(static_cast<std::int32_t>(i));
      h.coo_col.push_back(a.col[k]);
      h.coo_val.push_back(a.val[k]);
    }
  return h;
}

namespace {

// Sum over slices of 32 consecutive items of 32 x the slice's largest length_of(item).
template <class Length>
std::int64_t slice_slots(std::int64_t items, Length length_of) {
  constexpr std::int64_t kSlice = 32;
  std::int64_t slots = 0;
#pragma omp parallel for schedule(static) reduction(+ : slots)
  for (std::int64_t first = 0; first < items; first += kSlice) {
    std::int64_t longest = 0;
    for (std::int64_t i = first; i < std::min(items, first + kSlice); ++i) longest = std::max(longest, length_of(i));
    slots += kSlice * longest;
  }
  return slots;
}

}  // namespace

RowStats row_statistics(const CsrMatrix& a) {
  RowStats s;
  s.rows = a.rows;
  s.nnz = a.nnz();
  if (a.rows == 0) return s;
  std::int64_t longest = 0, shortest = row_length(a, 0), empty = 0, diagonals = 0, block_diagonals = 0;
  double sum2 = 0;
  std::vector<char> occupied(static_cast<std::size_t>(2 * a.rows + 1), 0);  // by offset j - i
  const std::int64_t block_rows = a.rows / 3;
  std::vector<char> block_occupied(static_cast<std::size_t>(2 * block_rows + 1), 0);  // by block offset
  bool block3 = a.rows % 3 == 0;
#pragma omp parallel for schedule(static) reduction(max : longest) reduction(min : shortest) \
    reduction(+ : empty, sum2, diagonals, block_diagonals) reduction(&& : block3)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    const std::int64_t len = row_length(a, i);
    longest = std::max(longest, len);
    shortest = std::min(shortest, len);
    empty += len == 0;
    sum2 += static_cast<double>(len) * static_cast<double>(len);
    const std::int32_t* col = a.col.data();
    char* diagonal = occupied.data() + (a.rows - i);  // entry j: offset j - i
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) diagonals += mark(diagonal[col[k]]);
    // A 3x3-blocked row has the length of its block row's first row and columns in aligned triples.
    if (block3 && (len % 3 != 0 || len != row_length(a, i - i % 3))) block3 = false;
    char* block_diagonal = block_occupied.data() + (block_rows - i / 3);  // block column c: offset c - i / 3
    for (auto k = a.row_ptr[i]; block3 && k < a.row_ptr[i + 1]; k += 3) {
      if (col[k] % 3 != 0 || col[k + 2] != col[k] + 2) block3 = false;
      else block_diagonals += mark(block_diagonal[col[k] / 3]);
    }
  }
  s.max = longest, s.min = shortest, s.empty_rows = empty, s.diagonals = diagonals;
  s.mean = static_cast<double>(s.nnz) / static_cast<double>(a.rows);
  s.stddev = std::sqrt(std::max(0.0, sum2 / static_cast<double>(a.rows) - s.mean * s.mean));
  s.rows_of_length.assign(static_cast<std::size_t>(s.max + 1), 0);
  for (std::int64_t i = 0; i < a.rows; ++i) ++s.rows_of_length[row_length(a, i)];
  s.slice_slots = slice_slots(a.rows, [&](std::int64_t i) { return row_length(a, i); });
  s.block3 = block3;
  if (!block3) return s;
  s.block_diagonals = block_diagonals;
  // Blocks per block row: a block row's first row has one aligned triple per block.
  auto blocks_of = [&](std::int64_t br) { return row_length(a, 3 * br) / 3; };
  double block_sum2 = 0;
  for (std::int64_t br = 0; br < block_rows; ++br) {
    const std::int64_t blocks = blocks_of(br);
    s.block_max = std::max(s.block_max, blocks);
    block_sum2 += static_cast<double>(blocks) * static_cast<double>(blocks);
  }
  s.block_rows_of_length.assign(static_cast<std::size_t>(s.block_max + 1), 0);
  for (std::int64_t br = 0; br < block_rows; ++br) ++s.block_rows_of_length[blocks_of(br)];
  s.block_slice_slots = slice_slots(block_rows, blocks_of);
  s.block_mean = s.mean / 3;
  s.block_stddev = std::sqrt(std::max(0.0, block_sum2 / static_cast<double>(block_rows) - s.block_mean * s.block_mean));
  return s;
}

}  // namespace fem::kernels

#pragma once
// Sparse storage formats converted from CSR, laid out for GPU kernels (host copies; the CUDA and
// OpenCL modules upload them): the nine formats of the format study are CSR and vector CSR (the
// CsrMatrix itself), ELL, SELL, HYB, BCSR, BELL, DIA and CDS. Padded formats check their size
// before building and refuse with a message when padding would blow up (DIA/ELL/CDS on
// irregular matrices).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::kernels {

// A conversion declined because the padded format would be too large.
class FormatRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Padded formats may store at most `max_fill` times the CSR entries and `max_bytes` in all.
struct PaddingLimit {
  double max_fill = 3.0;
  std::size_t max_bytes = std::size_t(48) << 30;
};

// ELL: every row padded to `width` entries, column-major (entry k of row i at k * rows + i) so
// consecutive threads read consecutive addresses. Padding has col = -1 and val = 0.
struct EllMatrix {
  std::int64_t rows = 0, width = 0;
  std::vector<std::int32_t> col;
  std::vector<double> val;
};

// Sliced ELL: slices of `slice_height` rows, each padded to its own longest row and stored
// column-major inside the slice; slice s starts at slice_ptr[s] (entries), width slice_width[s].
struct SellMatrix {
  std::int64_t rows = 0;
  int slice_height = 32;
  std::vector<std::int64_t> slice_ptr;
  std::vector<std::int32_t> slice_width;
  std::vector<std::int32_t> col;
  std::vector<double> val;
};

// Block CSR with square b x b blocks (b = 3 for nodal elasticity dofs), values of a block
// row-major and blocks contiguous. Needs rows divisible by b. With `planes`, each block row's
// blocks are b * b planes instead: entry e (= r * b + c) of block k of a block row whose `count`
// blocks start at block `first` is at val[b * b * first + e * count + k] (the CUDA kernel's order:
// lanes reading neighbouring blocks read neighbouring addresses).
struct BcsrMatrix {
  int block = 3;
  bool planes = false;
  std::int64_t block_rows = 0;
  std::vector<std::int64_t> block_row_ptr{0};
  std::vector<std::int32_t> block_col;
  std::vector<double> val;  // block_col.size() * block * block
};

// Blocked ELL over b x b blocks: every block row padded to `width` blocks, stored column-major
// over block rows so consecutive block rows are consecutive addresses: block slot k of block row
// br has its block column at col[k * block_rows + br] (-1 = padding, only at a row's end) and its
// value (r, c) at val[(k * b * b + r * b + c) * block_rows + br]. Needs rows divisible by b.
struct BellMatrix {
  int block = 3;
  std::int64_t block_rows = 0, width = 0;
  std::vector<std::int32_t> col;
  std::vector<double> val;
};

// DIA: one padded column per occupied diagonal, val[d * rows + i] = A(i, i + offset[d]).
struct DiaMatrix {
  std::int64_t rows = 0;
  std::vector<std::int32_t> offset;
  std::vector<double> val;
};

// CDS (compressed diagonal storage of blocks): DIA over b x b blocks. Block diagonal d holds the
// blocks (br, br + offset[d]), value (r, c) at val[(d * b * b + r * b + c) * block_rows + br]
// (zero where the block is absent or outside the matrix). Needs rows divisible by b.
struct CdsMatrix {
  int block = 3;
  std::int64_t block_rows = 0;
  std::vector<std::int32_t> offset;  // block-column offsets, increasing
  std::vector<double> val;
};

// HYB: an ELL part of width chosen so that a third of the rows fill it, the rest as COO triples.
struct HybMatrix {
  EllMatrix ell;
  std::vector<std::int32_t> coo_row, coo_col;
  std::vector<double> coo_val;
};

EllMatrix to_ell(const CsrMatrix& a, const PaddingLimit& limit = {});
SellMatrix to_sell(const CsrMatrix& a, int slice_height = 32, const PaddingLimit& limit = {});
BcsrMatrix to_bcsr(const CsrMatrix& a, int block = 3, const PaddingLimit& limit = {}, bool planes = false);
BellMatrix to_bell(const CsrMatrix& a, int block = 3, const PaddingLimit& limit = {});
DiaMatrix to_dia(const CsrMatrix& a, const PaddingLimit& limit = {});
CdsMatrix to_cds(const CsrMatrix& a, int block = 3, const PaddingLimit& limit = {});
HybMatrix to_hyb(const CsrMatrix& a, const PaddingLimit& limit = {});

// Throws std::invalid_argument naming the first inconsistency (sizes, pointers, column range).
void check_csr(const CsrMatrix& a);

// Row-length statistics, the input of the format/parameter model (kernels/shared/spmv_model.hpp).
struct RowStats {
  std::int64_t rows = 0, nnz = 0;
  double mean = 0, stddev = 0;
  std::int64_t max = 0, min = 0, empty_rows = 0;
  std::int64_t diagonals = 0;        // distinct occupied diagonals (offset j - i)
  bool block3 = false;               // every row's pattern made of whole aligned 3x3 blocks
  std::int64_t block_diagonals = 0;  // with block3: distinct occupied diagonals of 3x3 blocks
  double block_mean = 0, block_stddev = 0;  // with block3: blocks per block row
  std::int64_t block_max = 0;
  std::vector<std::int64_t> rows_of_length;        // rows_of_length[L]: rows with L entries (0..max)
  std::vector<std::int64_t> block_rows_of_length;  // with block3: block rows with L blocks (0..block_max)
  // Entries a warp of 32 consecutive rows touches when each runs to its own end: the sum over
  // slices of 32 rows of 32 x the slice's longest row (SELL-32's storage; ELL's traffic).
  std::int64_t slice_slots = 0;
  std::int64_t block_slice_slots = 0;  // with block3: the same over slices of 32 block rows, in blocks
};
// One pass over the entries, in parallel.
RowStats row_statistics(const CsrMatrix& a);

}  // namespace fem::kernels

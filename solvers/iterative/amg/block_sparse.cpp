#include "solvers/iterative/amg/block_sparse.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <omp.h>

#include "kernels/shared/block_spmv.hpp"
#include "support/stopwatch.hpp"

namespace fem::amg {
namespace {

// Below this many stored entries (a level's work, whatever its block size) a parallel region
// costs more than it saves; on a busy machine far more (about the CSR kernel's 20,000 rows of
// elasticity).
constexpr std::int64_t kParallelFrom = 1000000;
// The largest block side the kernels hold on the stack (k <= 6 near-null vectors, d <= 3 dofs).
constexpr int kMaxBlock = 8;

// Block dimensions known at compile time (the common shapes: the loops unroll) or at run time.
template <int R, int C, int K = 1>
struct Fixed {
  static constexpr int rows() { return R; }
  static constexpr int cols() { return C; }
  static constexpr int inner() { return K; }
};
struct Runtime {
  int r, c, k = 1;
  int rows() const { return r; }
  int cols() const { return c; }
  int inner() const { return k; }
};

// The first entry of row `row` of b to visit: its start, or for from >= 0 the first column >= from.
inline std::int64_t first_column(const BlockSparse& b, std::int64_t row, std::int64_t from) {
  const auto begin = b.col.begin() + b.row_ptr[row], end = b.col.begin() + b.row_ptr[row + 1];
  return from >= 0 ? std::lower_bound(begin, end, from) - b.col.begin() : b.row_ptr[row];
}

// The products' arithmetic compiled twice where the compiler can: for x86-64 with AVX2 and FMA
// (4 doubles a step; the host picks it at load time where it has them) and plain x86-64 (2 a step).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define FEM_AMG_WIDE_VECTORS __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define FEM_AMG_WIDE_VECTORS
#endif

// acc (R x C) += a (R x K) b (K x C), all row-major and apart (restrict: the rows vectorise).
template <class Dims>
inline void block_multiply_add(const double* __restrict a, const double* __restrict b, double* __restrict acc,
                               Dims dims) {
  const int R = dims.rows(), C = dims.cols(), K = dims.inner();
  for (int r = 0; r < R; ++r)
    for (int k = 0; k < K; ++k) {
      const double ark = a[r * K + k];
#pragma omp simd
      for (int c = 0; c < C; ++c) acc[r * C + c] += ark * b[k * C + c];
    }
}

// A new column's block in `acc`: its slot (acc grows as needed; the block is then written, not added to).
inline void open_block(std::int32_t j, std::int64_t bs, std::int32_t* slot, std::vector<std::int32_t>& cols,
                       std::vector<double>& acc) {
  slot[j] = static_cast<std::int32_t>(cols.size());
  cols.push_back(j);
  const auto end = static_cast<std::size_t>(cols.size() * bs);
  if (acc.size() < end) acc.resize(std::max(end, 2 * acc.size()));
}

// acc (R x C) = a (R x K) b (K x C), or += with `add`.
template <class Dims>
inline void block_multiply(const double* __restrict a, const double* __restrict b, double* __restrict acc, Dims dims,
                           bool add) {
  if (add) return block_multiply_add(a, b, acc, dims);
  const int R = dims.rows(), C = dims.cols(), K = dims.inner();
  for (int r = 0; r < R; ++r) {
#pragma omp simd
    for (int c = 0; c < C; ++c) acc[r * C + c] = a[r * K] * b[c];
    for (int k = 1; k < K; ++k) {
      const double ark = a[r * K + k];
#pragma omp simd
      for (int c = 0; c < C; ++c) acc[r * C + c] += ark * b[k * C + c];
    }
  }
}

// Row i of A B accumulated in `acc`: each column's block at its slot (slot[j], -1 for a column
// not met yet), the columns in `cols` in encounter order.
template <class Dims>
FEM_AMG_WIDE_VECTORS void accumulate_row(const BlockSparse& a, const BlockSparse& b, std::int64_t i,
                                         std::int64_t from, Dims dims, std::int32_t* slot,
                                         std::vector<std::int32_t>& cols, std::vector<double>& acc) {
  const std::int64_t bs = std::int64_t(dims.rows()) * dims.cols();
  for (auto ka = a.row_ptr[i]; ka < a.row_ptr[i + 1]; ++ka) {
    const double* ab = a.block(ka);
    const std::int64_t row = a.col[ka];
    for (auto kb = first_column(b, row, from); kb < b.row_ptr[row + 1]; ++kb) {
      const std::int32_t j = b.col[kb];
      const bool add = slot[j] >= 0;
      if (!add) open_block(j, bs, slot, cols, acc);
      block_multiply(ab, b.block(kb), acc.data() + slot[j] * bs, dims, add);
    }
  }
}

// acc += (block of R) times the blocks of a row of A P (columns `ap_col`, unsorted) from column
// `from` on, as accumulate_row.
template <class Dims>
FEM_AMG_WIDE_VECTORS void accumulate_upper(const double* rb, const std::vector<std::int32_t>& ap_col,
                                           const double* ap_val, std::int64_t from, Dims dims, std::int32_t* slot,
                                           std::vector<std::int32_t>& cols, std::vector<double>& acc) {
  const std::int64_t bs = std::int64_t(dims.rows()) * dims.cols(), ap_bs = std::int64_t(dims.inner()) * dims.cols();
  for (std::size_t e = 0; e < ap_col.size(); ++e) {
    const std::int32_t j = ap_col[e];
    if (j < from) continue;
    const bool add = slot[j] >= 0;
    if (!add) open_block(j, bs, slot, cols, acc);
    block_multiply(rb, ap_val + static_cast<std::int64_t>(e) * ap_bs, acc.data() + slot[j] * bs, dims, add);
  }
}

// Gustavson's product in two passes over the rows, so that the result is written once, in
// place: the symbolic pass counts each row's distinct block columns, the numeric one
// accumulates the row in encounter order and writes it out sorted.
template <class Dims>
BlockSparse product_rows(const BlockSparse& a, const BlockSparse& b, Dims dims) {
  BlockSparse c;
  c.row_block = a.row_block;
  c.col_block = b.col_block;
  c.block_rows = a.block_rows;
  c.block_cols = b.block_cols;
  const std::int64_t bs = c.block_size();
  const bool parallel = a.nnz() > kParallelFrom;
  kernels::UninitializedVector<std::int64_t> row_length(static_cast<std::size_t>(a.block_rows));  // each written below
#pragma omp parallel if (parallel)
  {
    std::vector<std::int64_t> seen(static_cast<std::size_t>(b.block_cols), -1);  // the last row that met a column
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < a.block_rows; ++i) {
      std::int64_t count = 0;
      for (auto ka = a.row_ptr[i]; ka < a.row_ptr[i + 1]; ++ka)
        for (auto kb = b.row_ptr[a.col[ka]]; kb < b.row_ptr[a.col[ka] + 1]; ++kb)
          if (seen[b.col[kb]] != i) seen[b.col[kb]] = i, ++count;
      row_length[i] = count;
    }
  }
  c.row_ptr.resize(static_cast<std::size_t>(a.block_rows) + 1);
  c.row_ptr[0] = 0;
  std::partial_sum(row_length.begin(), row_length.end(), c.row_ptr.begin() + 1);
  c.col.resize(static_cast<std::size_t>(c.row_ptr.back()));
  c.val.resize(static_cast<std::size_t>(c.row_ptr.back() * bs));
#pragma omp parallel if (parallel)
  {
    std::vector<std::int32_t> slot(static_cast<std::size_t>(b.block_cols), -1), cols;
    std::vector<double> acc;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < a.block_rows; ++i) {
      cols.clear();
      accumulate_row(a, b, i, -1, dims, slot.data(), cols, acc);
      std::int32_t* out_col = &c.col[c.row_ptr[i]];
      std::copy(cols.begin(), cols.end(), out_col);
      std::sort(out_col, out_col + cols.size());
      for (std::size_t p = 0; p < cols.size(); ++p) {
        std::copy_n(&acc[slot[out_col[p]] * bs], bs, c.block(c.row_ptr[i] + static_cast<std::int64_t>(p)));
        slot[out_col[p]] = -1;
      }
    }
  }
  return c;
}

// Whether the `block` CSR rows of block row br are whole blocks in step: the same length, each
// row's columns whole groups of `block` consecutive ones starting at a multiple of it, the same
// groups in every row. So are the node rows of an FE matrix away from cleared Dirichlet rows;
// their blocks are then copied straight, no marker, sort or zeroing.
template <class Block>
bool whole_blocks(const CsrMatrix& a, std::int64_t br, Block block) {
  const std::int64_t first = br * block, length = a.row_ptr[first + 1] - a.row_ptr[first];
  if (length % block != 0) return false;
  for (std::int64_t i = first; i < first + block; ++i) {
    if (a.row_ptr[i + 1] - a.row_ptr[i] != length) return false;
    const std::int32_t* lead = &a.col[a.row_ptr[first]];
    const std::int32_t* cols = &a.col[a.row_ptr[i]];
    for (std::int64_t p = 0; p < length; p += block) {
      if (lead[p] % block != 0) return false;
      for (int q = 0; q < block; ++q)
        if (cols[p + q] != lead[p] + q) return false;
    }
  }
  return true;
}

// `Block`: the block side as a compile-time constant where it is a common one (the divisions by
// it in the loops over every entry become multiplications), or an int.
template <class Block>
BlockSparse blocks_of(const CsrMatrix& a, Block block, Values* squared_norms) {
  BlockSparse m;
  m.row_block = m.col_block = block;
  m.block_rows = m.block_cols = a.rows / block;
  // The block columns of any other block row: the union of its rows' columns divided by the
  // block, sorted, each once (a marker per block column instead would be an array of the
  // matrix's size on every thread that meets such a row, hundreds of megabytes at millions of
  // equations, for the few rows the boundary conditions cut).
  const auto block_columns = [&](std::int64_t br, std::vector<std::int32_t>& cols) {
    cols.clear();
    for (std::int64_t i = br * block; i < (br + 1) * block; ++i)
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) cols.push_back(a.col[k] / block);
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  };
  kernels::UninitializedVector<std::int64_t> count(static_cast<std::size_t>(m.block_rows));  // each written below
  kernels::UninitializedVector<char> whole(static_cast<std::size_t>(m.block_rows));
#pragma omp parallel if (a.nnz() > kParallelFrom)
  {
    std::vector<std::int32_t> cols;
#pragma omp for schedule(static)
    for (std::int64_t br = 0; br < m.block_rows; ++br) {
      whole[br] = whole_blocks(a, br, block);
      if (whole[br]) {
        count[br] = (a.row_ptr[br * block + 1] - a.row_ptr[br * block]) / block;
        continue;
      }
      block_columns(br, cols);
      count[br] = static_cast<std::int64_t>(cols.size());
    }
  }
  m.row_ptr.resize(static_cast<std::size_t>(m.block_rows) + 1);
  m.row_ptr[0] = 0;
  std::partial_sum(count.begin(), count.end(), m.row_ptr.begin() + 1);
  m.col.resize(static_cast<std::size_t>(m.row_ptr.back()));
  m.val.resize(static_cast<std::size_t>(m.row_ptr.back() * m.block_size()));  // filled row by row below
  if (squared_norms) squared_norms->resize(m.col.size());
  const auto norms_of_row = [&](std::int64_t br) {
    if (squared_norms)
      for (auto k = m.row_ptr[br]; k < m.row_ptr[br + 1]; ++k)
        (*squared_norms)[k] = squared_norm(m.block(k), m.block_size());
  };
#pragma omp parallel if (a.nnz() > kParallelFrom)
  {
    std::vector<std::int32_t> cols;
#pragma omp for schedule(static)
    for (std::int64_t br = 0; br < m.block_rows; ++br) {
      const std::int64_t first = br * block;
      if (whole[br]) {
        const std::int32_t* lead = &a.col[a.row_ptr[first]];
        for (std::int64_t p = 0; p < count[br]; ++p) {
          m.col[m.row_ptr[br] + p] = lead[p * block] / block;
          double* to = m.block(m.row_ptr[br] + p);
          for (int r = 0; r < block; ++r)
            for (int c = 0; c < block; ++c) to[r * block + c] = a.val[a.row_ptr[first + r] + p * block + c];
        }
        norms_of_row(br);
        continue;
      }
      block_columns(br, cols);
      std::copy(cols.begin(), cols.end(), m.col.begin() + m.row_ptr[br]);
      std::fill(m.block(m.row_ptr[br]), m.block(m.row_ptr[br]) + cols.size() * m.block_size(), 0.0);
      for (std::int64_t i = first; i < first + block; ++i) {
        auto slot = m.row_ptr[br];
        for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
          while (m.col[slot] != a.col[k] / block) ++slot;  // both sorted: a forward walk finds it
          m.block(slot)[(i - first) * block + a.col[k] % block] = a.val[k];
        }
      }
      norms_of_row(br);
    }
  }
  return m;
}

}  // namespace

BlockSparse to_block_sparse(const CsrMatrix& a, int block, Values* squared_norms) {
  if (block < 1 || block > kMaxBlock || a.rows % block != 0)
    throw std::invalid_argument("amg: " + std::to_string(a.rows) + " equations are not whole blocks of " +
                                std::to_string(block));
  if (block == 3) return blocks_of(a, std::integral_constant<int, 3>{}, squared_norms);
  if (block == 2) return blocks_of(a, std::integral_constant<int, 2>{}, squared_norms);
  if (block == 1) return blocks_of(a, std::integral_constant<int, 1>{}, squared_norms);
  return blocks_of(a, block, squared_norms);
}

CsrMatrix to_csr(const BlockSparse& a) {
  const int rb = a.row_block, cb = a.col_block;
  CsrMatrix csr;
  csr.rows = a.rows();
  csr.row_ptr.resize(static_cast<std::size_t>(csr.rows) + 1);
  csr.row_ptr[0] = 0;
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (int r = 0; r < rb; ++r)
      csr.row_ptr[i * rb + r + 1] = csr.row_ptr[i * rb + r] + (a.row_ptr[i + 1] - a.row_ptr[i]) * cb;
  csr.col.resize(static_cast<std::size_t>(csr.row_ptr.back()));
  csr.val.resize(csr.col.size());
#pragma omp parallel for schedule(static) if (a.nnz() > kParallelFrom)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (int r = 0; r < rb; ++r) {
      std::int64_t out = csr.row_ptr[i * rb + r];
      for (std::int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        for (int c = 0; c < cb; ++c, ++out) {
          csr.col[out] = static_cast<std::int32_t>(a.col[k] * cb + c);
          csr.val[out] = a.block(k)[r * cb + c];
        }
    }
  return csr;
}

void multiply(const BlockSparse& a, std::span<const double> x, std::span<double> y) {
  kernels::block_spmv(a, 1.0, x, 0.0, y);
}

SingleBlockSparse to_single(const BlockSparse& a) {
  SingleBlockSparse s;
  s.row_block = a.row_block;
  s.col_block = a.col_block;
  s.block_rows = a.block_rows;
  s.block_cols = a.block_cols;
  s.row_ptr = a.row_ptr;
  s.col.resize(a.col.size());
  s.val.resize(a.val.size());
  const auto blocks = static_cast<std::int64_t>(a.col.size());
  const std::int64_t bs = a.block_size();
#pragma omp parallel for schedule(static) if (a.nnz() > kParallelFrom)
  for (std::int64_t k = 0; k < blocks; ++k) {
    s.col[k] = a.col[k];
    for (std::int64_t e = k * bs; e < (k + 1) * bs; ++e) s.val[e] = static_cast<float>(a.val[e]);
  }
  return s;
}

namespace {

// The transpose of `a`'s pattern: its row pointers into `row_ptr`, and place(k, i, to) for each
// block k of `a` (in row i) with the position `to` it takes in the transpose. Each thread takes a
// fixed range of block rows; per-thread counts of each column give every thread its own slots, in
// the order of the rows, so each row of the transpose comes out sorted whatever the threads. Each
// row i of `a` is first handed to prepare_row(i) (where given) on the thread that then reads it.
template <class Value, class Place>
void transpose_pattern(const BlockMatrix<Value>& a, kernels::UninitializedVector<std::int64_t>& row_ptr,
                       const std::function<void(std::int64_t)>& prepare_row, Place place) {
  const std::int64_t columns = a.block_cols;
  const bool parallel = a.nnz() > kParallelFrom;
  const int threads = parallel ? omp_get_max_threads() : 1;
  std::vector<std::int64_t> slot(static_cast<std::size_t>(threads) * static_cast<std::size_t>(columns), 0);
  const auto rows_of = [&](int thread) {
    return std::pair{a.block_rows * thread / threads, a.block_rows * (thread + 1) / threads};
  };
#pragma omp parallel num_threads(threads) if (parallel)
  {
    const int thread = omp_get_thread_num();
    const auto [first, last] = rows_of(thread);
    std::int64_t* count = &slot[static_cast<std::size_t>(thread) * columns];
    for (auto k = a.row_ptr[first]; k < a.row_ptr[last]; ++k) ++count[a.col[k]];
#pragma omp barrier
#pragma omp single
    {
      row_ptr.assign(static_cast<std::size_t>(columns) + 1, 0);
      std::int64_t next = 0;
      for (std::int64_t c = 0; c < columns; ++c) {
        for (int th = 0; th < threads; ++th) {
          std::int64_t& s = slot[static_cast<std::size_t>(th) * columns + c];
          const std::int64_t n = s;
          s = next;
          next += n;
        }
        row_ptr[c + 1] = next;
      }
    }
    for (std::int64_t i = first; i < last; ++i) {
      if (prepare_row) prepare_row(i);
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) place(k, i, count[a.col[k]]++);
    }
  }
}

// transpose() of `a`, whose rows prepare_row (where given) may change through the caller's
// reference before they are read.
template <class Value>
BlockMatrix<Value> transposed(const BlockMatrix<Value>& a, const std::function<void(std::int64_t)>& prepare_row) {
  BlockMatrix<Value> t;
  t.row_block = a.col_block;
  t.col_block = a.row_block;
  t.block_rows = a.block_cols;
  t.block_cols = a.block_rows;
  t.col.resize(a.col.size());
  t.val.resize(a.val.size());
  const int R = a.row_block, C = a.col_block;
  transpose_pattern(a, t.row_ptr, prepare_row, [&](std::int64_t k, std::int64_t i, std::int64_t to) {
    t.col[to] = static_cast<std::int32_t>(i);
    const Value* from = a.block(k);
    Value* into = t.block(to);
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < C; ++c) into[c * R + r] = from[r * C + c];
  });
  return t;
}

}  // namespace

BlockSparse transpose(const BlockSparse& a) { return transposed(a, nullptr); }

SingleBlockSparse transpose(const SingleBlockSparse& a) { return transposed(a, nullptr); }

BlockSparse transpose(BlockSparse& a, const std::function<void(std::int64_t)>& prepare_row) {
  return transposed(a, prepare_row);
}

namespace {

BlockSparse any_product(const BlockSparse& a, const BlockSparse& b) {
  if (a.col_block != b.row_block || a.block_cols != b.block_rows)
    throw std::invalid_argument("amg product: a " + std::to_string(a.rows()) + " x " + std::to_string(a.cols()) +
                                " matrix cannot multiply a " + std::to_string(b.rows()) + " x " +
                                std::to_string(b.cols()) + " one in these blocks");
  const int r = a.row_block, k = a.col_block, c = b.col_block;
  const auto run = [&](auto dims) { return product_rows(a, b, dims); };
  // The shapes of 3D and 2D elasticity and of heat: A T on the first levels, P^T (A P) in tests.
  if (r == 1 && k == 1 && c == 1) return run(Fixed<1, 1, 1>{});
  if (r == 3 && k == 3 && c == 6) return run(Fixed<3, 6, 3>{});
  if (r == 6 && k == 3 && c == 6) return run(Fixed<6, 6, 3>{});
  if (r == 6 && k == 6 && c == 6) return run(Fixed<6, 6, 6>{});
  if (r == 2 && k == 2 && c == 3) return run(Fixed<2, 3, 2>{});
  if (r == 3 && k == 2 && c == 3) return run(Fixed<3, 3, 2>{});
  if (r == 3 && k == 3 && c == 3) return run(Fixed<3, 3, 3>{});
  return run(Runtime{r, c, k});
}

}  // namespace

BlockSparse product(const BlockSparse& a, const BlockSparse& b) { return any_product(a, b); }

BlockSparse mirrored(const BlockSparse& upper) {
  BlockSparse m;
  m.row_block = m.col_block = upper.row_block;
  m.block_rows = m.block_cols = upper.block_rows;
  const std::int64_t n = m.block_rows, bs = m.block_size();
  const int b = m.row_block;
  // Row i: the mirrors of the blocks (j, i) of `upper` with j < i, then upper's row i. As in
  // transpose(): each thread takes a fixed range of upper's rows and counts the mirrors it gives
  // each row, so that it writes them to slots of its own, in order: every row comes out sorted
  // whatever the threads.
  const bool parallel = upper.nnz() > kParallelFrom;
  const int threads = parallel ? omp_get_max_threads() : 1;
  std::vector<std::int64_t> slot(static_cast<std::size_t>(threads) * static_cast<std::size_t>(n), 0);
  const auto rows_of = [&](int thread) { return std::pair{n * thread / threads, n * (thread + 1) / threads}; };
#pragma omp parallel num_threads(threads) if (parallel)
  {
    const int thread = omp_get_thread_num();
    const auto [first, last] = rows_of(thread);
    std::int64_t* next = &slot[static_cast<std::size_t>(thread) * n];
    for (auto k = upper.row_ptr[first]; k < upper.row_ptr[last]; ++k) ++next[upper.col[k]];
    for (std::int64_t j = first; j < last; ++j)
      if (upper.row_ptr[j] < upper.row_ptr[j + 1] && upper.col[upper.row_ptr[j]] == j) --next[j];  // not the diagonal
#pragma omp barrier
#pragma omp single
    {
      m.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
      for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t at = m.row_ptr[i];
        for (int t = 0; t < threads; ++t) {
          std::int64_t& s = slot[static_cast<std::size_t>(t) * n + i];
          const std::int64_t mirrors = s;
          s = at;
          at += mirrors;
        }
        m.row_ptr[i + 1] = at + (upper.row_ptr[i + 1] - upper.row_ptr[i]);
      }
      m.col.resize(static_cast<std::size_t>(m.row_ptr.back()));
      m.val.resize(static_cast<std::size_t>(m.row_ptr.back() * bs));
    }
    for (std::int64_t j = first; j < last; ++j) {
      const std::int64_t length = upper.row_ptr[j + 1] - upper.row_ptr[j], to = m.row_ptr[j + 1] - length;
      std::copy_n(upper.col.begin() + upper.row_ptr[j], length, m.col.begin() + to);
      std::copy_n(upper.block(upper.row_ptr[j]), length * bs, m.block(to));
      for (auto k = upper.row_ptr[j]; k < upper.row_ptr[j + 1]; ++k) {
        const std::int32_t i = upper.col[k];
        if (i == j) continue;
        const auto mirror = next[i]++;
        m.col[mirror] = static_cast<std::int32_t>(j);
        const double* from = upper.block(k);
        double* into = m.block(mirror);
        for (int r = 0; r < b; ++r)
          for (int c = 0; c < b; ++c) into[c * b + r] = from[r * b + c];
      }
    }
  }
  return m;
}

namespace {

// R = P^T read in place from P's blocks: the pattern of P^T, and at each of its entries the index of
// the block of P it transposes. The Galerkin product needs no R of its own (a level's R is then
// made after it, in the pages of what it freed: at millions of equations a gigabyte not touched fresh).
struct RestrictionOfP {
  const BlockSparse& p;
  kernels::UninitializedVector<std::int64_t> row_ptr;
  kernels::UninitializedVector<std::int32_t> col;            // rows of P
  kernels::UninitializedVector<std::int64_t> block_of_p;

  explicit RestrictionOfP(const BlockSparse& prolongator) : p(prolongator) {
    col.resize(p.col.size());
    block_of_p.resize(p.col.size());
    transpose_pattern(p, row_ptr, nullptr, [&](std::int64_t k, std::int64_t i, std::int64_t to) {
      col[to] = static_cast<std::int32_t>(i);
      block_of_p[to] = k;
    });
  }
  // R's block k (dims: rows x inner, the transpose of P's inner x rows block), in `scratch`.
  template <class Dims>
  const double* block(std::int64_t k, Dims dims, double* scratch) const {
    const int rows = dims.rows(), inner = dims.inner();
    const double* from = p.block(block_of_p[k]);
    for (int v = 0; v < rows; ++v)
      for (int c = 0; c < inner; ++c) scratch[v * inner + c] = from[c * rows + v];
    return scratch;
  }
};

// The coarse rows [next, end) of a piece of the Galerkin product, in one word, so that its owner's
// claim of its next row and another thread's cut of its upper half cannot cross.
class RowSpan {
 public:
  void set(std::int64_t next, std::int64_t end) { word_.store(pack(next, end)); }
  std::int64_t left() const {
    const auto [next, end] = unpack(word_.load());
    return end - next;
  }
  // The next row, or -1 when none is left.
  std::int64_t claim() {
    std::uint64_t word = word_.load();
    for (;;) {
      const auto [next, end] = unpack(word);
      if (next >= end) return -1;
      if (word_.compare_exchange_weak(word, pack(next + 1, end))) return next;
    }
  }
  // The upper half of the rows left, cut off, when at least 2 * least are left; else an empty span.
  std::pair<std::int64_t, std::int64_t> cut(std::int64_t least) {
    std::uint64_t word = word_.load();
    for (;;) {
      const auto [next, end] = unpack(word);
      if (end - next < 2 * least) return {0, 0};
      const std::int64_t middle = next + (end - next) / 2;
      if (word_.compare_exchange_weak(word, pack(next, middle))) return {middle, end};
    }
  }

 private:
  static std::uint64_t pack(std::int64_t next, std::int64_t end) {
    return static_cast<std::uint64_t>(next) << 32 | static_cast<std::uint64_t>(end);
  }
  static std::pair<std::int64_t, std::int64_t> unpack(std::uint64_t word) {
    return {static_cast<std::int64_t>(word >> 32), static_cast<std::int64_t>(word & 0xffffffffu)};
  }
  std::atomic<std::uint64_t> word_{0};
};

// A piece of consecutive coarse rows of P^T (A P), made by one thread at a time.
struct Piece {
  RowSpan span;
  std::int64_t first = 0;                          // its first row: the rows of A P are made from this column on
  kernels::UninitializedVector<std::int32_t> col;  // its rows of the result, one after another
  Values val;
};

// The pieces of the coarse rows: one range of rows a thread to begin with, then pieces cut off
// the one with the most rows left by the threads done with theirs.
class PieceQueue {
 public:
  explicit PieceQueue(std::int64_t most_pieces)
      : pieces_(static_cast<std::size_t>(most_pieces)), most_pieces_(most_pieces) {}

  // One range of `rows` a thread of the team. A piece cut off holds at least a sixteenth of such a
  // range (below that, the band of A P rows it must make again costs more than the rows it takes).
  void start(std::int64_t rows, int threads) {
    for (int t = 0; t < threads; ++t) {
      pieces_[t].first = rows * t / threads;
      pieces_[t].span.set(pieces_[t].first, rows * (t + 1) / threads);
    }
    count_ = threads;
    least_ = std::max<std::int64_t>(1, rows / threads / 16);
  }

  // A piece cut off the one with the most rows left, or -1 when none is worth cutting.
  std::int64_t cut_off() {
    for (int attempt = 0; attempt < 4; ++attempt) {
      const std::int64_t count = this->count();
      std::int64_t victim = -1, most = 0;
      for (std::int64_t k = 0; k < count; ++k)
        if (const std::int64_t left = pieces_[k].span.left(); left > most) most = left, victim = k;
      if (victim < 0 || most < 2 * least_) return -1;
      const std::int64_t taken = count_.fetch_add(1);
      if (taken >= most_pieces_) return -1;
      const auto [from, to] = pieces_[victim].span.cut(least_);
      if (from >= to) continue;  // left empty
      pieces_[taken].first = from;
      pieces_[taken].span.set(from, to);
      return taken;
    }
    return -1;
  }

  std::int64_t count() const { return std::min(count_.load(), most_pieces_); }
  Piece& operator[](std::int64_t k) { return pieces_[static_cast<std::size_t>(k)]; }

 private:
  std::vector<Piece> pieces_;
  std::int64_t most_pieces_;
  std::atomic<std::int64_t> count_{0};
  std::int64_t least_ = 1;  // the fewest rows of a piece cut off
};

// What a thread keeps from one piece to the next: the rows of A P it holds and its work arrays.
struct PieceScratch {
  struct KeptRow {
    std::vector<std::int32_t> col;
    std::vector<double> val;
  };
  std::vector<KeptRow> kept;
  std::vector<std::int32_t> cached_band, free_slots;
  std::vector<std::int32_t> slot, cols;  // slot: per coarse column, its place in `acc` (-1: none)
  std::vector<double> acc;
};

// The coarse rows of `piece`, as the thread claims them, into piece.col and piece.val (and
// their lengths into row_length).
template <class DimsAP, class DimsRAP>
void make_piece_rows(const RestrictionOfP& r, const BlockSparse& a, const BlockSparse& p, DimsAP ap_dims,
                     DimsRAP rap_dims, Piece& piece, PieceScratch& s, std::int64_t* row_length) {
  const std::int64_t ap_bs = std::int64_t(ap_dims.rows()) * ap_dims.cols(), bs = std::int64_t(p.col_block) * p.col_block;
  double r_block[kMaxBlock * kMaxBlock];
  const std::int64_t first = piece.first, last = first + piece.span.left();  // `last` may be cut lower
  // The rows of A P kept: cached(i) indexes `kept` (-1: not made) for the fine rows
  // low..high that this piece reads (a band, not all of them); freed slots are reused.
  std::int64_t low = p.block_rows, high = -1;
  for (std::int64_t row = first; row < last; ++row)
    if (r.row_ptr[row] < r.row_ptr[row + 1])
      low = std::min<std::int64_t>(low, r.col[r.row_ptr[row]]),
      high = std::max<std::int64_t>(high, r.col[r.row_ptr[row + 1] - 1]);
  s.cached_band.assign(static_cast<std::size_t>(std::max<std::int64_t>(high - low + 1, 0)), -1);
  s.free_slots.resize(s.kept.size());
  std::iota(s.free_slots.begin(), s.free_slots.end(), 0);
  const auto cached = [&](std::int64_t i) -> std::int32_t& { return s.cached_band[static_cast<std::size_t>(i - low)]; };
  for (std::int64_t row; (row = piece.span.claim()) >= 0;) {
    // (1) the rows of A P this coarse row reads
    for (auto k = r.row_ptr[row]; k < r.row_ptr[row + 1]; ++k) {
      const std::int32_t i = r.col[k];
      if (cached(i) >= 0) continue;
      if (s.free_slots.empty()) s.free_slots.push_back(static_cast<std::int32_t>(s.kept.size())), s.kept.emplace_back();
      cached(i) = s.free_slots.back();
      s.free_slots.pop_back();
      s.cols.clear();
      // from the first coarse row of this piece that reads it: a row that the piece before
      // reads too is made here only in the part this piece needs
      const auto p_first = p.col.begin() + p.row_ptr[i], p_last = p.col.begin() + p.row_ptr[i + 1];
      accumulate_row(a, p, i, *std::lower_bound(p_first, p_last, static_cast<std::int32_t>(first)), ap_dims,
                     s.slot.data(), s.cols, s.acc);
      PieceScratch::KeptRow& ap = s.kept[static_cast<std::size_t>(cached(i))];
      ap.col.assign(s.cols.begin(), s.cols.end());
      ap.val.assign(s.acc.begin(), s.acc.begin() + static_cast<std::int64_t>(s.cols.size()) * ap_bs);
      for (const auto j : s.cols) s.slot[j] = -1;
    }
    // (2) the coarse row from its columns on
    s.cols.clear();
    for (auto k = r.row_ptr[row]; k < r.row_ptr[row + 1]; ++k) {
      const PieceScratch::KeptRow& ap = s.kept[static_cast<std::size_t>(cached(r.col[k]))];
      accumulate_upper(r.block(k, rap_dims, r_block), ap.col, ap.val.data(), row, rap_dims, s.slot.data(), s.cols,
                       s.acc);
    }
    std::sort(s.cols.begin(), s.cols.end());
    row_length[row] = static_cast<std::int64_t>(s.cols.size());
    for (const auto j : s.cols) {
      piece.col.push_back(j);
      piece.val.insert(piece.val.end(), s.acc.begin() + s.slot[j] * bs, s.acc.begin() + (s.slot[j] + 1) * bs);
      s.slot[j] = -1;
    }
    // (3) drop the rows of A P no later coarse row of this piece reads (row i is read by the
    // coarse rows of P's row i)
    for (auto k = r.row_ptr[row]; k < r.row_ptr[row + 1]; ++k) {
      const std::int32_t i = r.col[k];
      if (cached(i) < 0) continue;
      bool read_later = false;
      for (auto kp = p.row_ptr[i]; kp < p.row_ptr[i + 1]; ++kp)
        read_later = read_later || (p.col[kp] > row && p.col[kp] < last);
      if (!read_later) s.free_slots.push_back(cached(i)), cached(i) = -1;
    }
  }
}

// The result's rows from the pieces, each piece's rows in their place (a piece left empty has none).
void gather_pieces(PieceQueue& pieces, const kernels::UninitializedVector<std::int64_t>& row_length, bool parallel,
                   BlockSparse& c) {
  const std::int64_t bs = c.block_size();
  c.row_ptr.resize(static_cast<std::size_t>(c.block_rows) + 1);
  c.row_ptr[0] = 0;
  std::partial_sum(row_length.begin(), row_length.end(), c.row_ptr.begin() + 1);
  c.col.resize(static_cast<std::size_t>(c.row_ptr.back()));
  c.val.resize(static_cast<std::size_t>(c.row_ptr.back() * bs));
  const std::int64_t count = pieces.count();
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (std::int64_t k = 0; k < count; ++k) {
    Piece& piece = pieces[k];
    std::copy(piece.col.begin(), piece.col.end(), c.col.begin() + c.row_ptr[piece.first]);
    std::copy(piece.val.begin(), piece.val.end(), c.val.begin() + c.row_ptr[piece.first] * bs);
    piece.col = {};
    piece.val = Values();
  }
}

// The rows of A P that the upper half of P^T (A P) reads, made as P^T's rows come to need them:
// each thread takes a piece of consecutive coarse rows in order and keeps the rows of A P its next
// coarse rows still read (a band of the fine rows in a banded numbering), dropping each after the
// last coarse row of its piece that reads it. A P is never whole in memory (at millions of
// equations gigabytes written and read once); a fine row that two pieces read is made by both,
// each from its own first coarse row on. The pieces start as one range of rows a thread; a thread
// done with its piece cuts off the upper half of the piece with the most rows left and takes it
// (a thread that the system delays does not hold the others up: on the H100 host the product
// spread from 0.50 to 0.93 s with one fixed range a thread).
template <class DimsAP, class DimsRAP>
BlockSparse upper_triple_rows(const RestrictionOfP& r, const BlockSparse& a, const BlockSparse& p, DimsAP ap_dims,
                              DimsRAP rap_dims, std::vector<double>* thread_seconds) {
  BlockSparse c;
  c.row_block = c.col_block = p.col_block;
  c.block_rows = c.block_cols = p.block_cols;
  const bool parallel = a.nnz() > kParallelFrom;
  const int most_threads = parallel ? omp_get_max_threads() : 1;
  kernels::UninitializedVector<std::int64_t> row_length(static_cast<std::size_t>(c.block_rows));  // each written below
  PieceQueue pieces(std::int64_t(most_threads) * 64);
  if (thread_seconds) thread_seconds->clear();
#pragma omp parallel num_threads(most_threads) if (parallel)
  {
    const Stopwatch watch;
    const int thread = omp_get_thread_num();
#pragma omp single
    {
      pieces.start(c.block_rows, omp_get_num_threads());
      if (thread_seconds) thread_seconds->assign(static_cast<std::size_t>(omp_get_num_threads()), 0.0);
    }
    PieceScratch scratch;
    scratch.slot.assign(static_cast<std::size_t>(p.block_cols), -1);
    for (std::int64_t at = thread; at >= 0; at = pieces.cut_off())
      make_piece_rows(r, a, p, ap_dims, rap_dims, pieces[at], scratch, row_length.data());
    if (thread_seconds) (*thread_seconds)[static_cast<std::size_t>(thread)] = watch.seconds();
  }
  gather_pieces(pieces, row_length, parallel, c);
  return c;
}

}  // namespace

BlockSparse upper_triple_product(const BlockSparse& a, const BlockSparse& p, std::vector<double>* thread_seconds) {
  if (a.row_block != a.col_block || a.block_rows != a.block_cols || a.col_block != p.row_block ||
      a.block_cols != p.block_rows)
    throw std::invalid_argument("amg upper_triple_product: P^T A P needs a square A in square blocks, P's rows A's");
  const RestrictionOfP r(p);
  const int d = a.row_block, k = p.col_block;
  if (d == 3 && k == 6) return upper_triple_rows(r, a, p, Fixed<3, 6, 3>{}, Fixed<6, 6, 3>{}, thread_seconds);
  if (d == 6 && k == 6) return upper_triple_rows(r, a, p, Fixed<6, 6, 6>{}, Fixed<6, 6, 6>{}, thread_seconds);
  if (d == 2 && k == 3) return upper_triple_rows(r, a, p, Fixed<2, 3, 2>{}, Fixed<3, 3, 2>{}, thread_seconds);
  if (d == 3 && k == 3) return upper_triple_rows(r, a, p, Fixed<3, 3, 3>{}, Fixed<3, 3, 3>{}, thread_seconds);
  if (d == 1 && k == 1) return upper_triple_rows(r, a, p, Fixed<1, 1, 1>{}, Fixed<1, 1, 1>{}, thread_seconds);
  return upper_triple_rows(r, a, p, Runtime{d, k, d}, Runtime{k, k, d}, thread_seconds);
}

Values diagonal(const BlockSparse& a) {
  Values d(static_cast<std::size_t>(a.rows()));
  const int b = a.row_block;
#pragma omp parallel for schedule(static) if (a.nnz() > kParallelFrom)
  for (std::int64_t i = 0; i < a.block_rows; ++i) {
    const auto begin = a.col.begin() + a.row_ptr[i], end = a.col.begin() + a.row_ptr[i + 1];
    const auto at = std::lower_bound(begin, end, static_cast<std::int32_t>(i));
    const double* block = at != end && *at == i ? a.block(at - a.col.begin()) : nullptr;
    for (int r = 0; r < b; ++r) d[i * b + r] = block ? block[r * b + r] : 0.0;
  }
  return d;
}

std::vector<double> absolute_row_sums(const BlockSparse& a) {
  std::vector<double> sums(static_cast<std::size_t>(a.rows()), 0.0);
  const int R = a.row_block, C = a.col_block;
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) sums[i * R + r] += std::abs(a.block(k)[r * C + c]);
  return sums;
}

std::vector<double> to_dense(const BlockSparse& a) {
  const std::int64_t n = a.cols();
  std::vector<double> m(static_cast<std::size_t>(a.rows() * n), 0.0);
  const int R = a.row_block, C = a.col_block;
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) m[(i * R + r) * n + a.col[k] * C + c] = a.block(k)[r * C + c];
  return m;
}

}  // namespace fem::amg

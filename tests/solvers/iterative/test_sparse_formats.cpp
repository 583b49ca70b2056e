// Conversions from CSR to the padded and blocked formats (ELL, SELL, HYB, BCSR, BELL, DIA, CDS),
// checked by multiplying in each format by its documented layout and comparing with the serial
// CSR product; refusals and bad input. A block of vectors multiplied in one pass over CSR.
#include <doctest/doctest.h>

#include "kernels/shared/sparse_formats.hpp"
#include "kernels/shared/spmv_cpu.hpp"
#include "kernels/shared/vector_ops.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;
using namespace fem::kernels;

namespace {

std::vector<double> reference(const CsrMatrix& a, const std::vector<double>& x) {
  std::vector<double> y(x.size());
  spmv_serial(a, x, y);
  return y;
}

// y = A x from an ELL layout (entry k of row i at k * rows + i, padding col = -1).
void ell_multiply(const EllMatrix& e, const std::vector<double>& x, std::vector<double>& y) {
  for (std::int64_t i = 0; i < e.rows; ++i)
    for (std::int64_t k = 0; k < e.width; ++k)
      if (const auto c = e.col[k * e.rows + i]; c >= 0) y[i] += e.val[k * e.rows + i] * x[c];
}

std::vector<double> multiply(const SellMatrix& s, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (std::int64_t i = 0; i < s.rows; ++i) {
    const auto sl = i / s.slice_height;
    for (std::int64_t k = 0; k < s.slice_width[sl]; ++k) {
      const auto at = s.slice_ptr[sl] + k * s.slice_height + i % s.slice_height;
      if (s.col[at] >= 0) y[i] += s.val[at] * x[s.col[at]];
    }
  }
  return y;
}

std::vector<double> multiply(const DiaMatrix& d, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  for (std::size_t k = 0; k < d.offset.size(); ++k)
    for (std::int64_t i = 0; i < d.rows; ++i)
      if (const auto j = i + d.offset[k]; j >= 0 && j < d.rows) y[i] += d.val[k * d.rows + i] * x[j];
  return y;
}

// y = A x from the BELL layout (block slot k of block row br: column at k * n + br, value (r, c)
// at (9 k + 3 r + c) * n + br).
std::vector<double> multiply(const BellMatrix& b, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  const std::int64_t n = b.block_rows;
  for (std::int64_t br = 0; br < n; ++br)
    for (std::int64_t k = 0; k < b.width; ++k)
      if (const auto c = b.col[k * n + br]; c >= 0)
        for (int r = 0; r < 3; ++r)
          for (int q = 0; q < 3; ++q) y[3 * br + r] += b.val[(9 * k + 3 * r + q) * n + br] * x[3 * c + q];
  return y;
}

// y = A x from the CDS layout (block diagonal d: value (r, c) of block (br, br + offset[d]) at
// (9 d + 3 r + c) * n + br).
std::vector<double> multiply(const CdsMatrix& d, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  const std::int64_t n = d.block_rows;
  for (std::size_t k = 0; k < d.offset.size(); ++k)
    for (std::int64_t br = 0; br < n; ++br)
      if (const auto bc = br + d.offset[k]; bc >= 0 && bc < n)
        for (int r = 0; r < 3; ++r)
          for (int q = 0; q < 3; ++q) y[3 * br + r] += d.val[(9 * k + 3 * r + q) * n + br] * x[3 * bc + q];
  return y;
}

std::vector<double> multiply(const HybMatrix& h, const std::vector<double>& x) {
  std::vector<double> y(x.size(), 0.0);
  ell_multiply(h.ell, x, y);
  for (std::size_t k = 0; k < h.coo_val.size(); ++k) y[h.coo_row[k]] += h.coo_val[k] * x[h.coo_col[k]];
  return y;
}

}  // namespace

TEST_CASE("every format multiplies like CSR on a 3D elasticity matrix") {
  const auto fe = testing::elasticity_box(3, 2, 2);
  const CsrMatrix& a = fe.matrix;
  const auto x = testing::random_vector(a.rows, 1);
  const auto y = reference(a, x);
  std::vector<double> z(x.size(), 0.0);
  ell_multiply(to_ell(a), x, z);
  CHECK(testing::relative_difference(z, y) < 1e-13);
  for (int h : {1, 7, 32}) CHECK(testing::relative_difference(multiply(to_sell(a, h), x), y) < 1e-13);
  CHECK(testing::relative_difference(multiply(to_hyb(a), x), y) < 1e-13);
  CHECK(testing::relative_difference(multiply(to_dia(a, {100.0, std::size_t(1) << 30}), x), y) < 1e-13);
  std::vector<double> b(x.size());
  spmv_openmp(to_bcsr(a, 3), x, b);
  CHECK(testing::relative_difference(b, y) < 1e-13);
  spmv_openmp(a, x, b);
  CHECK(testing::relative_difference(b, y) < 1e-15);
  const BellMatrix bell = to_bell(a, 3, {10.0});
  CHECK(bell.width <= 27);
  CHECK(testing::relative_difference(multiply(bell, x), y) < 1e-13);
  const CdsMatrix cds = to_cds(a, 3, {100.0, std::size_t(1) << 30});
  CHECK(testing::relative_difference(multiply(cds, x), y) < 1e-13);

  const RowStats s = row_statistics(a);
  CHECK(s.block3);
  CHECK(s.nnz == a.nnz());
  CHECK(s.max <= 81);
  CHECK(s.block_max <= 27);
  CHECK(s.block_mean == doctest::Approx(s.mean / 3));
  CHECK(s.block_diagonals == static_cast<std::int64_t>(cds.offset.size()));
}

TEST_CASE("a hex27 box matrix: blocked formats with uneven block rows, and its statistics") {
  const auto fe = testing::elasticity_box(2, 2, 1, 2);
  const CsrMatrix& a = fe.matrix;
  const auto x = testing::random_vector(a.rows, 6);
  const auto y = reference(a, x);
  const RowStats s = row_statistics(a);
  CHECK(s.block3);
  CHECK(s.block_max > s.block_mean * 1.3);  // vertex nodes couple to far more nodes than centre nodes
  CHECK(testing::relative_difference(multiply(to_bell(a, 3, {10.0}), x), y) < 1e-13);
  std::vector<double> b(x.size());
  spmv_openmp(to_bcsr(a, 3), x, b);
  CHECK(testing::relative_difference(b, y) < 1e-13);
  for (int h : {3, 32}) CHECK(testing::relative_difference(multiply(to_sell(a, h), x), y) < 1e-13);
}

TEST_CASE("padded formats of an irregular matrix: HYB and SELL fit, ELL and DIA are refused") {
  const CsrMatrix a = testing::random_irregular(997, 12, 5);
  const auto x = testing::random_vector(a.rows, 2);
  const auto y = reference(a, x);
  CHECK_THROWS_WITH_AS(to_ell(a), doctest::Contains("ELL refused"), FormatRefused);
  CHECK_THROWS_WITH_AS(to_dia(a), doctest::Contains("DIA refused"), FormatRefused);
  CHECK_THROWS_AS(to_bcsr(a, 3), FormatRefused);  // 997 rows are not whole 3x3 blocks
  CHECK_THROWS_WITH_AS(to_bell(a, 3), doctest::Contains("not a multiple of the block size"), FormatRefused);
  CHECK_THROWS_WITH_AS(to_cds(a, 3), doctest::Contains("not a multiple of the block size"), FormatRefused);
  const HybMatrix h = to_hyb(a);
  CHECK(!h.coo_val.empty());
  CHECK(testing::relative_difference(multiply(h, x), y) < 1e-13);
  CHECK(testing::relative_difference(multiply(to_sell(a, 32, {20.0}), x), y) < 1e-13);
  std::vector<double> z(x.size(), 0.0);
  ell_multiply(to_ell(a, {1000.0}), x, z);  // with the limit raised it builds, and is right
  CHECK(testing::relative_difference(z, y) < 1e-13);
  std::vector<double> b(x.size());
  spmv_openmp(a, x, b);
  CHECK(testing::relative_difference(b, y) < 1e-15);
  const RowStats s = row_statistics(a);
  CHECK(!s.block3);
  CHECK(s.max == 997);
  CHECK(s.empty_rows >= 997 / 7);
}

TEST_CASE("blocked formats of an irregular matrix of whole block rows: BELL pads, CDS is refused") {
  // 999 rows = 333 block rows; rows of random length (one dense, some empty), not 3x3 blocks.
  const CsrMatrix a = testing::random_irregular(999, 20, 8);
  const auto x = testing::random_vector(a.rows, 3);
  const auto y = reference(a, x);
  CHECK_THROWS_WITH_AS(to_cds(a, 3), doctest::Contains("CDS refused"), FormatRefused);
  CHECK_THROWS_WITH_AS(to_bell(a, 3), doctest::Contains("BELL refused"), FormatRefused);  // the dense row's block row
  CHECK(testing::relative_difference(multiply(to_bell(a, 3, {1000.0}), x), y) < 1e-13);
  CHECK(testing::relative_difference(multiply(to_cds(a, 3, {1000.0}), x), y) < 1e-13);
  std::vector<double> b(x.size());
  spmv_openmp(to_bcsr(a, 3, {1000.0}), x, b);
  CHECK(testing::relative_difference(b, y) < 1e-13);
  CHECK(!row_statistics(a).block3);
}

TEST_CASE("BCSR in planes holds each block row's blocks entry by entry, the same values") {
  // Irregular block rows (one dense, some empty) and an FE matrix.
  for (const CsrMatrix& a : {testing::random_irregular(999, 20, 8), testing::elasticity_box(4, 3, 3).matrix}) {
    const BcsrMatrix blocks = to_bcsr(a, 3, {1000.0}), planes = to_bcsr(a, 3, {1000.0}, true);
    REQUIRE(planes.planes);
    REQUIRE(planes.val.size() == blocks.val.size());
    CHECK(planes.block_col == blocks.block_col);
    std::size_t differ = 0;
    for (std::int64_t br = 0; br < blocks.block_rows; ++br) {
      const auto first = static_cast<std::size_t>(blocks.block_row_ptr[br]);
      const auto count = static_cast<std::size_t>(blocks.block_row_ptr[br + 1]) - first;
      for (std::size_t k = 0; k < count; ++k)
        for (std::size_t e = 0; e < 9; ++e) differ += planes.val[9 * first + e * count + k] != blocks.val[9 * (first + k) + e];
    }
    CHECK(differ == 0);
  }
}

TEST_CASE("bad CSR input is named") {
  CsrMatrix a = testing::random_irregular(50, 5, 3);
  a.col[3] = 50;
  CHECK_THROWS_WITH_AS(check_csr(a), doctest::Contains("column index 50"), std::invalid_argument);
  std::vector<double> x(49), y(50);
  CHECK_THROWS_AS(spmv_openmp(a, x, y), std::invalid_argument);
}

TEST_CASE("a block of vectors multiplied in one pass equals spmv on each, past a chunk of 8, threaded or not") {
  for (const CsrMatrix& a : {testing::random_irregular(997, 12, 5), testing::elasticity_box(30, 30, 20).matrix}) {
    CAPTURE(a.rows);
    for (const int columns : {1, 6, 11}) {
      const auto n = static_cast<std::size_t>(a.rows);
      const auto x = testing::random_vector(a.rows * columns, 3);
      std::vector<double> y(x.size(), -1.0);
      cpu::spmv_columns(a, x, y);
      for (int j = 0; j < columns; ++j) {
        const std::vector<double> xj(x.begin() + j * n, x.begin() + (j + 1) * n);
        const std::vector<double> yj(y.begin() + j * n, y.begin() + (j + 1) * n);
        CHECK(testing::relative_difference(yj, reference(a, xj)) < 1e-15);
      }
    }
    std::vector<double> x(a.rows + 1), y(a.rows + 1);
    CHECK_THROWS_WITH_AS(cpu::spmv_columns(a, x, y), doctest::Contains("spmv_columns: blocks of"), std::invalid_argument);
  }
}

// The sparse back-ends' views of dense matrices' rows and their multi-column product spmv_rows
// (LOBPCG's blocks), on the cpu and, where there is a device, on cuda: against the host CSR
// product vector by vector, with padded and contiguous rows, and the refusals of bad views.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/compute_backend.hpp"
#include "kernels/dense_registry.hpp"
#include "kernels/shared/vector_ops.hpp"

using namespace fem::kernels;

namespace {

// n x n, each row its diagonal and up to six random off-diagonal entries (some rows short).
fem::CsrMatrix random_sparse(std::int64_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<std::int64_t> column(0, n - 1);
  fem::CsrMatrix a;
  a.rows = n;
  a.row_ptr.assign(1, 0);
  std::vector<std::int32_t> cols;
  std::vector<double> vals;
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<std::int32_t> row{static_cast<std::int32_t>(i)};
    for (int k = 0; k < static_cast<int>(i % 7); ++k) row.push_back(static_cast<std::int32_t>(column(random)));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (auto c : row) {
      cols.push_back(c);
      vals.push_back(value(random));
    }
    a.row_ptr.push_back(static_cast<std::int64_t>(cols.size()));
  }
  a.col.assign(cols.begin(), cols.end());
  a.val.assign(vals.begin(), vals.end());
  return a;
}

// The devices with views whose back-ends can run here, with their dense back-end.
std::vector<std::pair<std::string, std::string>> devices_here() {
  std::vector<std::pair<std::string, std::string>> out{{"cpu", "blas"}};
  if (unavailable_reason(*find_compute_backend("cuda")).empty()) out.emplace_back("cuda", "cublas");
  else MESSAGE("cuda part skipped: " << unavailable_reason(*find_compute_backend("cuda")));
  return out;
}

// spmv_rows with A from matrix() and from rows_matrix() equals the host product of each row,
// for rows `ld` apart (ld >= n).
void check_block_product(const std::string& device, const std::string& dense_name, std::int64_t ld) {
  const std::int64_t n = 301;
  const int count = 5;
  const auto a = random_sparse(n, 11);
  const auto dense = make_dense_backend(dense_name);
  const auto sparse = make_sparse_backend(device);
  std::vector<double> x(static_cast<std::size_t>(count * ld), 0.0);
  std::mt19937 random(5);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int j = 0; j < count; ++j)
    for (std::int64_t i = 0; i < n; ++i) x[j * ld + i] = value(random);
  const auto x_rows = dense->upload(x.data(), count, ld, ld).block(0, 0, count, n);
  const auto y_rows = dense->allocate<double>(count, ld).block(0, 0, count, n);
  std::map<std::string, double> figures;
  for (const auto& matrix : {sparse->matrix(a, "auto", figures), sparse->rows_matrix(a)}) {
    CAPTURE(matrix->setting());
    sparse->spmv_rows(*matrix, x_rows, y_rows);
    std::vector<double> y(static_cast<std::size_t>(count * n)), expected(n);
    dense->download(y_rows, y.data(), n);
    for (int j = 0; j < count; ++j) {
      fem::cpu::spmv(a, {x.data() + j * ld, static_cast<std::size_t>(n)}, expected);
      for (std::int64_t i = 0; i < n; ++i) REQUIRE(y[j * n + i] == doctest::Approx(expected[i]).epsilon(1e-14));
    }
  }
}

}  // namespace

TEST_CASE("spmv_rows equals the host product row by row, rows padded or contiguous") {
  for (const auto& [device, dense] : devices_here()) {
    CAPTURE(device);
    check_block_product(device, dense, 301);
    check_block_product(device, dense, 320);
  }
}

TEST_CASE("a view is the row in place: what goes in through it is in the matrix, and back") {
  for (const auto& [device, dense_name] : devices_here()) {
    CAPTURE(device);
    const auto dense = make_dense_backend(dense_name);
    const auto sparse = make_sparse_backend(device);
    const auto rows = dense->allocate<double>(3, 40).block(0, 0, 3, 33);
    const auto middle = sparse->view(rows, 1);
    REQUIRE(middle->size() == 33);
    std::vector<double> v(33);
    for (int i = 0; i < 33; ++i) v[i] = i + 0.5;
    middle->upload(v);
    std::vector<double> all(3 * 40, -1.0), back(33);
    dense->download(rows, all.data(), 40);
    for (int i = 0; i < 33; ++i) {
      CHECK(all[40 + i] == v[i]);
      CHECK(all[i] == 0.0);  // the other rows untouched
    }
    sparse->view(rows, 2)->download(back);
    CHECK(back == std::vector<double>(33, 0.0));
    CHECK(sparse->dot(*middle, *middle) == doctest::Approx(std::inner_product(v.begin(), v.end(), v.begin(), 0.0)));
  }
}

TEST_CASE("views refuse rows outside the matrix and matrices of another device") {
  const auto sparse = make_sparse_backend("cpu");
  const auto dense = make_dense_backend("blas");
  const auto rows = dense->allocate<double>(2, 10);
  CHECK_THROWS_WITH_AS(sparse->view(rows, 2), doctest::Contains("row 2 of a matrix of 2 rows"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(sparse->view(DeviceMatrix<double>{}, 0), doctest::Contains("without storage"),
                       std::invalid_argument);
  if (unavailable_reason(*find_compute_backend("cuda")).empty()) {
    const auto cublas = make_dense_backend("cublas");  // kept alive: its matrices name it as their owner
    const auto on_device = cublas->allocate<double>(2, 10);
    CHECK_THROWS_WITH_AS(sparse->view(on_device, 0), doctest::Contains("'cublas'"), std::invalid_argument);
  }
}

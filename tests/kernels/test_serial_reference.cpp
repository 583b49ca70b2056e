// The serial back-end is the truth for every other one, so it is checked against independent
// facts: a naive product written here, L Lᵀ = A, op(L) X = B, and the Schur complement.

#include "dense_test_support.hpp"

using namespace fem::kernels;
using namespace fem::kernels::test;

TEST_CASE("serial GEMM equals a naive triple loop for every op and awkward shapes") {
  const index_t shapes[][3] = {{1, 1, 1}, {7, 31, 257}, {257, 7, 31}, {31, 1, 7}};
  for (const auto& s : shapes)
    for (Op op_a : {Op::none, Op::transpose})
      for (Op op_b : {Op::none, Op::transpose}) {
        const index_t m = s[0], n = s[1], k = s[2];
        CAPTURE(m); CAPTURE(n); CAPTURE(k); CAPTURE(int(op_a)); CAPTURE(int(op_b));
        const auto a = op_a == Op::none ? random_matrix<double>(m, k, 1) : random_matrix<double>(k, m, 1);
        const auto b = op_b == Op::none ? random_matrix<double>(k, n, 2) : random_matrix<double>(n, k, 2);
        const auto c0 = random_matrix<double>(m, n, 3);
        const double alpha = 0.75, beta = -1.25;
        HostMatrix<double> expected(m, n);
        for (index_t i = 0; i < m; ++i)
          for (index_t j = 0; j < n; ++j) {
            double sum = 0;
            for (index_t p = 0; p < k; ++p) sum += at(a, op_a, i, p) * at(b, op_b, p, j);
            expected(i, j) = alpha * sum + beta * c0(i, j);
          }
        auto& ser = serial();
        const auto da = ser.upload(a.data.data(), a.rows, a.cols, a.cols);
        const auto db = ser.upload(b.data.data(), b.rows, b.cols, b.cols);
        const auto got = run_on(ser, c0, [&](auto& dc) { ser.gemm(op_a, op_b, alpha, da, db, beta, dc); });
        CHECK(relative_error(got, expected) < 1e-14);
      }
}

TEST_CASE("serial SYRK writes alpha A Aᵀ + beta C on the lower triangle only") {
  const index_t n = 31, k = 7;
  const auto a = random_matrix<double>(n, k, 4);
  const auto c0 = random_matrix<double>(n, n, 5);
  auto& ser = serial();
  const auto da = ser.upload(a.data.data(), n, k, k);
  const auto got = run_on(ser, c0, [&](auto& dc) { ser.syrk(-1.0, da, 2.0, dc); });
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      double expected = c0(i, j);
      if (j <= i) {
        double sum = 0;
        for (index_t p = 0; p < k; ++p) sum += a(i, p) * a(j, p);
        expected = -sum + 2.0 * c0(i, j);
      }
      CHECK(got(i, j) == doctest::Approx(expected).epsilon(1e-13));
    }
}

TEST_CASE("serial POTRF: L Lᵀ reproduces A, the upper triangle is untouched") {
  for (index_t n : {1, 7, 31, 100}) {
    CAPTURE(n);
    const auto a = random_spd<double>(n, 6, 42.0);
    auto& ser = serial();
    const auto l = run_on(ser, a, [&](auto& da) { ser.potrf(da); });
    double worst = 0;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j) {
        if (j > i) {
          CHECK(l(i, j) == 42.0);
          continue;
        }
        double sum = 0;
        for (index_t p = 0; p <= j; ++p) sum += l(i, p) * l(j, p);
        worst = std::max(worst, std::abs(sum - a(i, j)));
      }
    CHECK(worst < 1e-13);
  }
}

TEST_CASE("POTRF names the column of the first pivot that is not positive") {
  auto a = random_spd<double>(9, 7, 0.0);
  a(5, 5) = -100.0;  // rows and columns 0..4 stay positive definite
  auto& ser = serial();
  auto da = ser.upload(a.data.data(), 9, 9, 9);
  try {
    ser.potrf(da);
    FAIL("POTRF accepted an indefinite matrix");
  } catch (const NotPositiveDefinite& e) {
    CHECK(e.column() == 5);
  }
}

TEST_CASE("serial TRSM: op(L) X = B and X op(L) = B hold for every side and op") {
  const index_t n = 31, m = 7;
  const auto l = random_lower<double>(n, 8);
  for (Side side : {Side::left, Side::right})
    for (Op op : {Op::none, Op::transpose}) {
      CAPTURE(int(side)); CAPTURE(int(op));
      const auto b = side == Side::left ? random_matrix<double>(n, m, 9) : random_matrix<double>(m, n, 9);
      auto& ser = serial();
      const auto dl = ser.upload(l.data.data(), n, n, n);
      const auto x = run_on(ser, b, [&](auto& db) { ser.trsm(side, op, dl, db); });
      const auto lower = [&](index_t i, index_t j) { return j <= i ? l(i, j) : 0.0; };
      const auto op_l = [&](index_t i, index_t j) { return op == Op::none ? lower(i, j) : lower(j, i); };
      double worst = 0;
      for (index_t i = 0; i < b.rows; ++i)
        for (index_t j = 0; j < b.cols; ++j) {
          double sum = 0;
          for (index_t p = 0; p < n; ++p)
            sum += side == Side::left ? op_l(i, p) * x(p, j) : x(i, p) * op_l(p, j);
          worst = std::max(worst, std::abs(sum - b(i, j)));
        }
      CHECK(worst < 1e-13);
    }
}

TEST_CASE("front_update leaves L11, L21 and the Schur complement F22 - L21 L21ᵀ") {
  const index_t n = 40, p = 13;
  const auto f = random_spd<double>(n, 10, 7.0);
  auto& ser = serial();
  const auto g = run_on(ser, f, [&](auto& df) { ser.front_update(df, p); });
  // [L11 0; L21 I] [I 0; 0 S] [L11ᵀ L21ᵀ; 0 I] must give F back on the lower triangle.
  double worst = 0;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j <= i; ++j) {
      double sum = j >= p ? g(i, j) : 0.0;  // S, for i >= j >= p
      for (index_t q = 0; q < std::min(j + 1, p); ++q) sum += g(i, q) * g(j, q);  // (L Lᵀ)(i, j)
      worst = std::max(worst, std::abs(sum - f(i, j)));
    }
  CHECK(worst < 1e-13);
  CHECK(g(0, 1) == 7.0);  // F12 untouched
}

TEST_CASE("bad input is refused with a message, not a crash") {
  auto& ser = serial();
  auto a = ser.allocate<double>(3, 4);
  auto b = ser.allocate<double>(5, 2);
  auto c = ser.allocate<double>(3, 2);
  CHECK_THROWS_WITH_AS(ser.gemm(Op::none, Op::none, 1.0, a, b, 0.0, c),
                       doctest::Contains("do not multiply"), std::invalid_argument);
  CHECK_THROWS_AS(ser.potrf(a), std::invalid_argument);
  CHECK_THROWS_AS(a.block(2, 0, 2, 1), std::out_of_range);
  CHECK_THROWS_WITH_AS(make_dense_backend("vulkan"), doctest::Contains("known: serial"),
                       std::invalid_argument);
  auto other = make_dense_backend("openmp");
  auto foreign = other->allocate<double>(3, 2);
  CHECK_THROWS_WITH_AS(ser.gemm(Op::none, Op::transpose, 1.0, foreign, foreign, 0.0, ser.allocate<double>(3, 3)),
                       doctest::Contains("not allocated by"), std::invalid_argument);
}

TEST_CASE("every known back-end reports whether it can run here") {
  for (const auto& name : dense_backend_names()) {
    const auto status = dense_backend_status(name);
    MESSAGE(name << ": " << (status.available ? "available" : status.reason));
    if (!status.available) {
      CHECK(!status.reason.empty());
      CHECK_THROWS_AS(make_dense_backend(name), BackendUnavailable);
    }
  }
  CHECK(dense_backend_status("serial").available);
  CHECK(dense_backend_status("openmp").available);
}

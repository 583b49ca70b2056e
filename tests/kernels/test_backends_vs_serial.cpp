// Every back-end against the serial reference on random inputs of awkward sizes (1, 7, 31, 257:
// non-multiples of every tile), on blocks inside larger matrices (offsets, ld > cols), in double
// (relative error < 1e-12) and float (< 1e-4). Back-ends that cannot run here are skipped with
// a message.

#include "dense_test_support.hpp"

using namespace fem::kernels;
using namespace fem::kernels::test;

namespace {

// A random host matrix standing for the (row, col) block of a larger random matrix, so that a
// back-end writing outside the block or mixing up ld and cols is caught.
template <class T>
struct Embedded {
  HostMatrix<T> whole;
  index_t row, col, rows, cols;
  Embedded(index_t r, index_t c, unsigned seed)
      : whole(random_matrix<T>(r + 5, c + 9, seed)), row(3), col(4), rows(r), cols(c) {}
  DeviceMatrix<T> on(DenseBackend& backend, std::vector<DeviceMatrix<T>>& keep) const {
    keep.push_back(backend.upload(whole.data.data(), whole.rows, whole.cols, whole.cols));
    return keep.back().block(row, col, rows, cols);
  }
  HostMatrix<T> read(DenseBackend& backend, const DeviceMatrix<T>& block) const {
    DeviceMatrix<T> full{block.storage, 0, whole.rows, whole.cols, whole.cols};
    HostMatrix<T> out(whole.rows, whole.cols);
    backend.download(full, out.data.data(), out.cols);
    return out;
  }
};

// Runs `operation(backend, A, B, C)` on copies of a, b, c and returns the whole of C's host.
template <class T, class Operation>
HostMatrix<T> apply(DenseBackend& backend, const Embedded<T>& a, const Embedded<T>& b,
                    const Embedded<T>& c, Operation operation) {
  std::vector<DeviceMatrix<T>> keep;
  const auto da = a.on(backend, keep), db = b.on(backend, keep), dc = c.on(backend, keep);
  operation(backend, da, db, dc);
  return c.read(backend, dc);
}

template <class T>
void compare_gemm(const std::string& name) {
  DenseBackend* backend = backend_or_skip(name);
  if (!backend) return;
  // {300, 520, 600}: several cache and device tiles in every direction, none of them whole.
  const index_t shapes[][3] = {{1, 1, 1}, {7, 31, 257}, {257, 7, 31}, {31, 257, 7}, {257, 257, 257},
                               {300, 520, 600}, {33, 20, 0}};
  for (const auto& s : shapes)
    for (Op op_a : {Op::none, Op::transpose})
      for (Op op_b : {Op::none, Op::transpose}) {
        const index_t m = s[0], n = s[1], k = s[2];
        CAPTURE(name); CAPTURE(m); CAPTURE(n); CAPTURE(k); CAPTURE(int(op_a)); CAPTURE(int(op_b));
        const Embedded<T> a(op_a == Op::none ? m : k, op_a == Op::none ? k : m, 11);
        const Embedded<T> b(op_b == Op::none ? k : n, op_b == Op::none ? n : k, 12);
        const Embedded<T> c(m, n, 13);
        const auto run = [&](DenseBackend& be, const auto& da, const auto& db, const auto& dc) {
          be.gemm(op_a, op_b, T(0.75), da, db, T(-1.25), dc);
        };
        const auto expected = apply(serial(), a, b, c, run);
        CHECK(relative_error(apply(*backend, a, b, c, run), expected) < tolerance<T>());
      }
  // beta = 0 must not read C: NaN there may not leak into the result.
  Embedded<T> c(7, 31, 14);
  for (auto& v : c.whole.data) v = std::numeric_limits<T>::quiet_NaN();
  const Embedded<T> a(7, 31, 15), b(31, 31, 16);
  const auto run = [&](DenseBackend& be, const auto& da, const auto& db, const auto& dc) {
    be.gemm(Op::none, Op::none, T(1), da, db, T(0), dc);
  };
  const auto got = apply(*backend, a, b, c, run);
  for (index_t i = 0; i < c.rows; ++i)
    for (index_t j = 0; j < c.cols; ++j) CHECK(std::isfinite(got(c.row + i, c.col + j)));
}

template <class T>
void compare_syrk(const std::string& name) {
  DenseBackend* backend = backend_or_skip(name);
  if (!backend) return;
  for (const auto& [n, k] : {std::pair<index_t, index_t>{257, 31}, {31, 257}, {1, 7}, {300, 300}}) {
    CAPTURE(name); CAPTURE(n); CAPTURE(k);
    const Embedded<T> a(n, k, 21), c(n, n, 22);
    const auto run = [&](DenseBackend& be, const auto& da, const auto&, const auto& dc) {
      be.syrk(T(-1), da, T(0.5), dc);
    };
    // The whole of C is compared: the strict upper triangle must come back untouched.
    CHECK(relative_error(apply(*backend, a, a, c, run), apply(serial(), a, a, c, run)) < tolerance<T>());
  }
}

template <class T>
void compare_trsm(const std::string& name) {
  DenseBackend* backend = backend_or_skip(name);
  if (!backend) return;
  for (index_t n : {7, 257})
    for (Side side : {Side::left, Side::right})
      for (Op op : {Op::none, Op::transpose}) {
        CAPTURE(name); CAPTURE(n); CAPTURE(int(side)); CAPTURE(int(op));
        const auto lower = random_lower<T>(n, 31);
        Embedded<T> l(n, n, 0);
        for (index_t i = 0; i < n; ++i)
          for (index_t j = 0; j < n; ++j) l.whole(l.row + i, l.col + j) = lower(i, j);
        const Embedded<T> b(side == Side::left ? n : 31, side == Side::left ? 31 : n, 32);
        const auto run = [&](DenseBackend& be, const auto& dl, const auto&, const auto& db) {
          be.trsm(side, op, dl, db);
        };
        CHECK(relative_error(apply(*backend, l, l, b, run), apply(serial(), l, l, b, run)) < tolerance<T>());
      }
}

template <class T>
void compare_potrf_and_front(const std::string& name) {
  DenseBackend* backend = backend_or_skip(name);
  if (!backend) return;
  for (index_t n : {1, 7, 31, 257}) {
    CAPTURE(name); CAPTURE(n);
    const auto spd = random_spd<T>(n, 41, T(3));
    const auto potrf = [](DenseBackend& be, const HostMatrix<T>& a) {
      return run_on(be, a, [&](auto& d) { be.potrf(d); });
    };
    CHECK(relative_error(potrf(*backend, spd), potrf(serial(), spd)) < tolerance<T>());
    for (index_t pivots : {index_t{0}, n / 3, n}) {
      CAPTURE(pivots);
      const auto front = [&](DenseBackend& be) {
        return run_on(be, spd, [&](auto& d) { be.front_update(d, pivots); });
      };
      CHECK(relative_error(front(*backend), front(serial())) < tolerance<T>());
    }
  }
  auto bad = random_spd<T>(100, 42, T(0));
  bad(70, 70) = T(-1);  // 70 lies in the second diagonal tile of every blocked back-end
  auto d = backend->upload(bad.data.data(), 100, 100, 100);
  try {
    backend->potrf(d);
    FAIL("POTRF accepted an indefinite matrix on " << name);
  } catch (const NotPositiveDefinite& e) {
    CHECK(e.column() == 70);
  }
}

// `compare.template operator()<T>(name)` in double and in float on every compared back-end.
template <class Compare>
void in_both_precisions_on_every_backend(Compare compare) {
  for (const auto& name : compared_backends()) {
    compare.template operator()<double>(name);
    compare.template operator()<float>(name);
  }
}

}  // namespace

TEST_CASE("GEMM of every back-end equals the serial reference") {
  in_both_precisions_on_every_backend([]<class T>(const std::string& name) { compare_gemm<T>(name); });
}

TEST_CASE("SYRK of every back-end equals the serial reference and keeps the upper triangle") {
  in_both_precisions_on_every_backend([]<class T>(const std::string& name) { compare_syrk<T>(name); });
}

TEST_CASE("TRSM of every back-end equals the serial reference for every side and op") {
  in_both_precisions_on_every_backend([]<class T>(const std::string& name) { compare_trsm<T>(name); });
}

TEST_CASE("POTRF and front_update of every back-end equal the serial reference") {
  in_both_precisions_on_every_backend([]<class T>(const std::string& name) { compare_potrf_and_front<T>(name); });
}

TEST_CASE("device back-ends refuse to wrap host arrays; host back-ends compute in place") {
  std::vector<double> ones(12, 1.0), product(9, -1.0);
  for (const auto& name : compared_backends()) {
    DenseBackend* backend = backend_or_skip(name);
    if (!backend) continue;
    if (backend->uses_host_memory()) {
      auto a = backend->wrap(ones.data(), 3, 4, 4);
      backend->gemm(Op::none, Op::transpose, 1.0, a, a, 0.0, backend->wrap(product.data(), 3, 3, 3));
      CHECK(product == std::vector<double>(9, 4.0));  // rows of four ones, written in place
    } else {
      CHECK_THROWS_AS(backend->wrap(ones.data(), 3, 4, 4), std::logic_error);
    }
  }
}

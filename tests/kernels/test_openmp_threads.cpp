// The OpenMP GEMM cuts C among its threads (a grid of rectangles, or runs of rows of equal area
// for the lower triangle): every thread count must give the serial result, including counts that
// leave some threads without work.

#include "dense_test_support.hpp"

#include <omp.h>

using namespace fem::kernels;
using namespace fem::kernels::test;

namespace {

// Runs C := 0.75 A B - 1.25 C (or the SYRK form when `lower`) and returns C.
HostMatrix<double> product(DenseBackend& backend, const HostMatrix<double>& a,
                           const HostMatrix<double>& b, HostMatrix<double> c, bool lower) {
  const auto da = backend.upload(a.data.data(), a.rows, a.cols, a.cols);
  const auto db = backend.upload(b.data.data(), b.rows, b.cols, b.cols);
  const auto dc = backend.upload(c.data.data(), c.rows, c.cols, c.cols);
  if (lower) backend.syrk(0.75, da, -1.25, dc);
  else backend.gemm(Op::none, Op::none, 0.75, da, db, -1.25, dc);
  backend.download(dc, c.data.data(), c.cols);
  return c;
}

}  // namespace

TEST_CASE("OpenMP GEMM and SYRK equal the serial reference for any number of threads") {
  DenseBackend* openmp = backend_or_skip("openmp");
  if (!openmp) return;
  const int saved = omp_get_max_threads();
  const index_t shapes[][3] = {{300, 520, 200}, {520, 300, 200}, {9, 700, 400}, {700, 9, 400}};
  for (int threads : {1, 2, 3, 5, 16}) {
    omp_set_num_threads(threads);
    for (const auto& s : shapes) {
      CAPTURE(threads); CAPTURE(s[0]); CAPTURE(s[1]); CAPTURE(s[2]);
      const auto a = random_matrix<double>(s[0], s[2], 51), b = random_matrix<double>(s[2], s[1], 52);
      const auto c = random_matrix<double>(s[0], s[1], 53);
      CHECK(relative_error(product(*openmp, a, b, c, false), product(serial(), a, b, c, false)) < 1e-12);
    }
    const auto a = random_matrix<double>(301, 260, 54), c = random_matrix<double>(301, 301, 55);
    CAPTURE(threads);
    CHECK(relative_error(product(*openmp, a, a, c, true), product(serial(), a, a, c, true)) < 1e-12);
  }
  omp_set_num_threads(saved);
}

#include "solvers/eigen/shifted_matrix.hpp"

#include <stdexcept>

namespace fem::eigen {

CsrMatrix shifted_matrix(const CsrMatrix& k, const CsrMatrix& m, double sigma) {
  if (k.rows != m.rows) throw std::invalid_argument("shifted_matrix: K and M differ in size");
  CsrMatrix a;
  a.rows = k.rows;
  a.row_ptr.assign(a.rows + 1, 0);
  // Two passes over sorted rows: count the union, then merge.
  const auto merge = [&](std::int64_t i, bool fill) {
    auto p = k.row_ptr[i], q = m.row_ptr[i];
    const auto p_end = k.row_ptr[i + 1], q_end = m.row_ptr[i + 1];
    std::int64_t out = fill ? a.row_ptr[i] : 0;
    while (p < p_end || q < q_end) {
      const bool from_k = q == q_end || (p < p_end && k.col[p] <= m.col[q]);
      const bool from_m = p == p_end || (q < q_end && m.col[q] <= k.col[p]);
      if (fill) {
        a.col[out] = from_k ? k.col[p] : m.col[q];
        a.val[out] = (from_k ? k.val[p] : 0.0) - (from_m ? sigma * m.val[q] : 0.0);
      }
      ++out;
      p += from_k;
      q += from_m;
    }
    return out;
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] = merge(i, false);
  for (std::int64_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  a.col.resize(a.row_ptr.back());
  a.val.resize(a.row_ptr.back());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) merge(i, true);
  return a;
}

namespace {
double diagonal(const CsrMatrix& a, std::int64_t i) {
  for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
    if (a.col[p] == i) return a.val[p];
  return 0.0;
}
}  // namespace

double default_shift(const CsrMatrix& k, const CsrMatrix& m) {
  double sum = 0;
  std::int64_t count = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum, count)
  for (std::int64_t i = 0; i < k.rows; ++i) {
    const double mass = diagonal(m, i);
    if (mass <= 0) continue;
    sum += diagonal(k, i) / mass;
    ++count;
  }
  if (count == 0 || !(sum > 0)) throw std::invalid_argument("default_shift: no equation has both stiffness and mass");
  return -1e-6 * sum / count;
}

}  // namespace fem::eigen

#include "solvers/eigen/mode_residuals.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/shared/vector_ops.hpp"

namespace fem::eigen {

std::vector<double> mode_residuals(const CsrMatrix& k, const CsrMatrix& m, std::span<const double> eigenvalues,
                                   std::span<const double> vectors, double shift) {
  const auto n = static_cast<std::size_t>(k.rows);
  double reference = std::abs(shift);
  for (double lambda : eigenvalues) reference = std::max(reference, std::abs(lambda));
  // Eight pairs at a time through one pass over K and one over M (spmv_columns): at millions of
  // equations the matrices' traffic, not the vectors', is the cost of this check.
  constexpr std::size_t kGroup = 8;
  const std::size_t pairs = eigenvalues.size();
  std::vector<double> kx(std::min(pairs, kGroup) * n), mx(kx.size()), out;
  for (std::size_t first = 0; first < pairs; first += kGroup) {
    const std::size_t count = std::min(kGroup, pairs - first);
    const auto x = vectors.subspan(first * n, count * n);
    cpu::spmv_columns(k, x, std::span(kx).first(count * n));
    cpu::spmv_columns(m, x, std::span(mx).first(count * n));
    for (std::size_t j = 0; j < count; ++j) {
      const std::span<double> kxj(kx.data() + j * n, n);
      const std::span<const double> mxj(mx.data() + j * n, n);
      const double norm_kx = std::sqrt(cpu::dot(kxj, kxj)), norm_mx = std::sqrt(cpu::dot(mxj, mxj));
      cpu::axpy(-eigenvalues[first + j], mxj, kxj);
      const double scale = std::max(norm_kx, reference * norm_mx);
      out.push_back(scale > 0 ? std::sqrt(cpu::dot(kxj, kxj)) / scale : 0.0);
    }
  }
  return out;
}

}  // namespace fem::eigen

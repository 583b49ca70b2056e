#include "solvers/eigen/mode_residuals.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/shared/vector_ops.hpp"

namespace fem::eigen {

std::vector<double> mode_residuals(const CsrMatrix& k, const CsrMatrix& m, std::span<const double> eigenvalues,
                                   std::span<const double> vectors, double shift) {
  const auto n = static_cast<std::size_t>(k.rows);
  std::vector<double> kx(n), mx(n), out;
  double reference = std::abs(shift);
  for (double lambda : eigenvalues) reference = std::max(reference, std::abs(lambda));
  for (std::size_t i = 0; i < eigenvalues.size(); ++i) {
    const auto x = vectors.subspan(i * n, n);
    cpu::spmv(k, x, kx);
    cpu::spmv(m, x, mx);
    const double norm_kx = std::sqrt(cpu::dot(kx, kx)), norm_mx = std::sqrt(cpu::dot(mx, mx));
    cpu::axpy(-eigenvalues[i], mx, kx);
    const double scale = std::max(norm_kx, reference * norm_mx);
    out.push_back(scale > 0 ? std::sqrt(cpu::dot(kx, kx)) / scale : 0.0);
  }
  return out;
}

}  // namespace fem::eigen
